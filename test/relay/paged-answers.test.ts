import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { DEFAULT_RELAY_LIMITS } from '../../src/relay/limits.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { RawClient } from './raw-client.js';

const station = newKey();
const EVENTS = 300;
const CONTENT = 20 * 1024;

/**
 * Answers larger than a connection's queue bound (300 events of 20 KiB against 1 MiB) are read and sent as
 * the client takes them: a client that reads gets all of it, the station's own connection is never dropped,
 * one that does not read holds a bounded queue and is dropped.
 */
describe('embedded relay: paged answers', () => {
  let relay: EmbeddedRelay;
  let dir: string;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await relay.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    dir = await mkdtemp(join(tmpdir(), 'relay-paged-'));
    const store = await openLmdbEventStore({ path: dir });
    const key = newKey();
    const at = Math.floor(Date.now() / 1000) - EVENTS;
    for (let i = 0; i < EVENTS; i++)
      await store.put(signEvent(key, { kind: 1, content: `${i}`.padEnd(CONTENT, 'x'), created_at: at + i }));
    relay = await startEmbeddedRelay({
      host: '127.0.0.1',
      port: 0,
      store,
      privilegedPubkeys: [station.hex],
      limits: {
        ...DEFAULT_RELAY_LIMITS,
        slowConsumerBytes: 1024 * 1024,
        maxLimit: 5_000,
        stalledSendMs: 2_000,
      },
    });
  }
  const connect = async () => {
    const client = await RawClient.connect(relay.url);
    clients.push(client);
    return client;
  };

  it('gives a reading client an answer many times its queue bound, every event once, newest first', async () => {
    await start();
    const client = await connect();
    client.send('REQ', 'all', { kinds: [1], limit: 5_000 });
    const events = await client.stored('all');
    expect(events).toHaveLength(EVENTS);
    expect(new Set(events.map((event) => event.id)).size).toBe(EVENTS);
    expect(events[0]!.content.startsWith(`${EVENTS - 1}`)).toBe(true);
    expect(client.closeCode).toBeNull();
  });

  it("never drops the station's own connection, whose back-fill passes any stranger's bound", async () => {
    await start();
    const client = await connect();
    await client.next((frame) => frame[0] === 'AUTH');
    const auth = signEvent(station, {
      kind: 22242,
      tags: [
        ['relay', relay.url],
        ['challenge', client.challenge],
      ],
    });
    client.send('AUTH', auth);
    expect((await client.ok(auth.id))[2]).toBe(true);
    // Reads slowly: paused while the relay queues, then resumed.
    const raw = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    client.send('REQ', 'backfill', { kinds: [1] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    raw.resume();
    expect(await client.stored('backfill')).toHaveLength(EVENTS);
    expect(client.closeCode).toBeNull();
  });

  it('stops reading an answer at its next page once the client is gone', async () => {
    await start();
    const client = await connect();
    client.send('REQ', 'all', { kinds: [1], limit: 5_000 });
    client.close();
    await waitFor(() => relay.health().connections === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A page or two (the first is 10 events), not the 300 asked: read to its end for nobody, an answer held
    // the relay's event loop for as long as it took (test/security/relay-slow-readers.test.ts).
    expect(relay.health().answer_events_read).toBeLessThan(EVENTS / 10);
  });

  it('holds little for strangers that do not read, and drops them once they stall', async () => {
    await start();
    const readers = await Promise.all(Array.from({ length: 4 }, connect));
    for (const reader of readers) {
      (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      for (const id of ['a', 'b', 'c']) reader.send('REQ', id, { kinds: [1], limit: 5_000 });
    }
    // Each connection's answers pause once a page (128 KiB) is queued for it; 512 KiB leaves room to spare.
    let most = 0;
    const bound = 4 * (512 * 1024 + 3 * (CONTENT + 1024));
    await waitFor(() => {
      most = Math.max(most, relay.health().queued_bytes);
      return relay.health().connections === 0;
    }, 30_000);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(bound);
    expect(relay.health().queued_bytes).toBe(0);
    expect(readers.every((reader) => reader.frames.every((frame) => frame[0] !== 'EOSE'))).toBe(true);
  });
});
