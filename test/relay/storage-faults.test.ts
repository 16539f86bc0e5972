import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { tempDir } from '../helpers/temp.js';
import { failLmdb, watchProcess } from '../helpers/write-faults.js';
import { RawClient } from './raw-client.js';

vi.mock('lmdb', async (real) => (await import('../helpers/write-faults.js')).recordingLmdb(await real()));

/**
 * The relay's event store with its commits failing as lmdb-js reports a failed commit (the seam is lmdb-js
 * itself: disk-full.test.ts fails a write from inside the transaction instead): `OK false "error: …"`, the
 * process stays up, and the same event is stored once the disk takes it.
 */
describe.each([
  ['ENOSPC', 'error: the relay has no disk space left'],
  ['EIO', 'error: the relay could not store it'],
] as const)('the relay store failing with %s', (fault, message) => {
  let relay: EmbeddedRelay | undefined;
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  afterEach(async () => {
    await relay?.close();
    await dir?.cleanup();
  });

  it('answers OK false with an error, and OK true to the same event afterwards', async () => {
    const watch = watchProcess();
    dir = await tempDir();
    const path = join(dir.path, 'store');
    relay = await startEmbeddedRelay({
      host: '127.0.0.1',
      port: 0,
      store: await openLmdbEventStore({ path }),
    });
    const client = await RawClient.connect(relay.url);
    const key = newKey();
    const event = signEvent(key, { kind: 1, content: `written through ${fault}` });
    const restore = failLmdb(fault, path);
    try {
      client.send('EVENT', event);
      expect(await client.ok(event.id)).toEqual(['OK', event.id, false, message]);
      expect(relay.health().store).toMatchObject({
        ok: false,
        error: expect.stringContaining('event store write failed'),
      });
    } finally {
      restore();
    }
    const seen = client.frames.length;
    client.send('EVENT', event);
    expect(await client.next((frame) => frame[0] === 'OK', seen)).toEqual(['OK', event.id, true, '']);
    client.send('REQ', 'mine', { authors: [key.hex] });
    expect((await client.stored('mine')).map((stored) => stored.id)).toEqual([event.id]);
    client.close();
    // lmdb-js may settle a failed commit's real error a moment later: time for it to go unhandled, if it did.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    watch.stop();
    expect(watch.seen).toEqual([]);
  });
});
