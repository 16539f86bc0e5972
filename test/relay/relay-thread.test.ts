import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelayThread, type RelayThread } from '../../src/relay/thread/relay-thread.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { RawClient } from './raw-client.js';

describe('the relay thread', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(): Promise<{ relay: RelayThread; lines: Record<string, unknown>[] }> {
    const dir = await tempDir('relay-thread-');
    cleanups.push(dir.cleanup);
    const lines: Record<string, unknown>[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const relay = await startRelayThread(
      { host: '127.0.0.1', port: 0, storePath: dir.path, logLevel: 'info' },
      { logger: pino({ level: 'info' }, output), maxHeapMb: 128, restartDelayMs: 50 },
    );
    cleanups.push(() => relay.close());
    return { relay, lines };
  }

  it('serves the relay from its own thread, reports its health and writes its logs with the station logger', async () => {
    const { relay, lines } = await start();
    const client = await RawClient.connect(relay.url);
    cleanups.push(async () => client.close());
    const event = signEvent(newKey(), { kind: 1, content: 'on a thread' });
    client.send('EVENT', event);
    expect((await client.ok(event.id))[2]).toBe(true);
    await waitFor(() => relay.health().store.events === 1 && relay.health().connections === 1);
    await relay.terminateThread();
    await waitFor(() => lines.some((line) => line.msg === 'embedded relay thread started again'));
    expect(lines.find((line) => /thread stopped/.test(String(line.msg)))?.level).toBe(50);
    expect(relay.health().restarts).toBe(1);
  });

  it('starts a thread that died again on the same port, with what it stored', async () => {
    const { relay } = await start();
    const first = await RawClient.connect(relay.url);
    const event = signEvent(newKey(), { kind: 1, content: 'kept' });
    first.send('EVENT', event);
    await first.ok(event.id);
    await relay.terminateThread();
    await waitFor(() => first.closeCode !== null);
    expect(relay.health().store.ok).toBe(false);
    await waitFor(() => relay.health().restarts === 1 && relay.health().store.ok);
    const again = await RawClient.connect(relay.url);
    cleanups.push(async () => again.close());
    again.send('REQ', 'all', { kinds: [1] });
    expect((await again.stored('all')).map((stored) => stored.id)).toEqual([event.id]);
  });
});
