import { nip77, type NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startEmbeddedRelay,
  type EmbeddedRelay,
  type EmbeddedRelayOptions,
} from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { RawClient } from './raw-client.js';

/**
 * Issue 45: NIP-77 (negentropy) on the embedded relay. The relay holds 30 notes, the client 30, 20 of them
 * shared: a reconciliation tells the client the 10 it needs and the 10 only it has, whichever library speaks.
 */
const key = newKey();
const base = Math.floor(Date.now() / 1000) - 3_600;
const notes = Array.from({ length: 40 }, (_, i) =>
  signEvent(key, { kind: 1, content: `note ${i}`, created_at: base + Math.floor(i / 4) }),
);
const shared = notes.slice(0, 20);
const relayOnly = notes.slice(20, 30);
const clientOnly = notes.slice(30, 40);
const clientHolds = [...shared, ...clientOnly];
const ids = (events: NostrEvent[]) => events.map((event) => event.id).sort();

function storageOf(events: NostrEvent[]): nip77.NegentropyStorageVector {
  const storage = new nip77.NegentropyStorageVector();
  for (const event of events) storage.insert(event.created_at, event.id);
  storage.seal();
  return storage;
}

/** A raw initial message over `events`, as a client would send it. */
const initial = (events: NostrEvent[] = []) => new nip77.Negentropy(storageOf(events)).initiate();

describe('embedded relay: NIP-77 sync', () => {
  let relay: EmbeddedRelay;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await relay?.close();
  });

  async function start(options: Partial<EmbeddedRelayOptions> = {}): Promise<void> {
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0, ...options });
    for (const event of [...shared, ...relayOnly]) await relay.store.put(event);
    // Not to be counted by a stranger's reconciliation: expired, and a station login.
    await relay.store.put(
      signEvent(key, { kind: 1, created_at: base, tags: [['expiration', `${base + 1}`]] }),
    );
    await relay.store.put(signEvent(key, { kind: 22242, created_at: base }));
  }

  async function raw(): Promise<RawClient> {
    const client = await RawClient.connect(relay.url);
    cleanups.push(() => client.close());
    return client;
  }

  it('tells a nostr-tools client the ids it needs and has (NegentropySync)', async () => {
    await start();
    const connection = await Relay.connect(relay.url);
    cleanups.push(() => connection.close());
    const have: string[] = [];
    const need: string[] = [];
    const ended = new Promise<string | undefined>((resolve) => {
      const sync = new nip77.NegentropySync(
        connection,
        storageOf(clientHolds),
        { kinds: [1], authors: [key.hex] },
        { onhave: (id) => have.push(id), onneed: (id) => need.push(id), onclose: resolve },
      );
      void sync.start();
    });
    expect(await ended).toBeUndefined();
    expect(have.sort()).toEqual(ids(clientOnly));
    expect(need.sort()).toEqual(ids(relayOnly));
  });

  it('tells an NDK client the same (@nostr-dev-kit/sync)', async () => {
    await start();
    const { default: WebSocket } = await import('ws');
    Object.assign(globalThis, { WebSocket: globalThis.WebSocket ?? WebSocket });
    const { default: NDK, NDKEvent } = await import('@nostr-dev-kit/ndk');
    const { NDKSync } = await import('@nostr-dev-kit/sync');
    const ndk = new NDK({ explicitRelayUrls: [relay.url] });
    await ndk.connect(5_000);
    cleanups.push(() => {
      for (const each of ndk.pool.relays.values()) each.disconnect();
    });
    // NDK reconciles against what its cache holds: a cache adapter giving the client's 30 events.
    ndk.cacheAdapter = {
      locking: false,
      query: (subscription) => {
        const events = clientHolds.map((event) => new NDKEvent(ndk, event));
        for (const event of events) subscription.eventReceived(event, undefined, true);
        return events;
      },
      setEvent: async () => {},
    };
    const result = await NDKSync.sync(ndk, { kinds: [1], authors: [key.hex] }, { autoFetch: false });
    expect([...result.have].sort()).toEqual(ids(clientOnly));
    expect([...result.need].sort()).toEqual(ids(relayOnly));
  });

  it('tells an applesauce client the same (applesauce-relay)', async () => {
    await start();
    const { default: WebSocket } = await import('ws');
    const { Relay: AppleRelay } = await import('applesauce-relay');
    const apple = new AppleRelay(relay.url, {
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    cleanups.push(() => apple.close());
    const have = new Set<string>();
    const need = new Set<string>();
    const done = await apple.negentropy(clientHolds, { kinds: [1], authors: [key.hex] }, async (h, n) => {
      for (const id of h) have.add(id);
      for (const id of n) need.add(id);
    });
    expect(done).toBe(true);
    expect([...have].sort()).toEqual(ids(clientOnly));
    expect([...need].sort()).toEqual(ids(relayOnly));
  });

  it('refuses a query over too many records with NEG-ERR "blocked", and its maximum', async () => {
    await start({ limits: { maxNegRecords: 25 } });
    const client = await raw();
    client.send('NEG-OPEN', 'big', { kinds: [1] }, initial());
    expect(await client.next((frame) => frame[1] === 'big')).toEqual([
      'NEG-ERR',
      'big',
      'blocked: this query covers more than 25 records',
      25,
    ]);
    client.send('NEG-OPEN', 'small', { kinds: [1], until: base + 4 }, initial());
    expect((await client.next((frame) => frame[1] === 'small'))[0]).toBe('NEG-MSG');
  });

  it('bounds open reconciliations per connection, a NEG-OPEN under an open id replacing it', async () => {
    await start({ limits: { maxNegOpen: 2 } });
    const client = await raw();
    for (const id of ['a', 'b', 'a']) {
      const seen = client.frames.length;
      client.send('NEG-OPEN', id, { kinds: [1] }, initial(clientHolds));
      expect((await client.next((frame) => frame[1] === id, seen))[0]).toBe('NEG-MSG');
    }
    client.send('NEG-OPEN', 'c', { kinds: [1] }, initial());
    const refused = await client.next((frame) => frame[1] === 'c');
    expect(refused.slice(0, 2)).toEqual(['NEG-ERR', 'c']);
    expect(refused[2]).toMatch(/^blocked: at most 2 open reconciliations/);
    client.send('NEG-CLOSE', 'a');
    client.send('NEG-OPEN', 'c', { kinds: [1] }, initial());
    expect((await client.next((frame) => frame[0] === 'NEG-MSG' && frame[1] === 'c'))[2]).toMatch(/^61/);
  });

  it('answers bad hex, a bad version byte, a bad filter and a closed id with NEG-ERR', async () => {
    await start();
    const client = await raw();
    const answer = async (...message: unknown[]) => {
      const seen = client.frames.length;
      client.send(...message);
      return client.next((frame) => frame[0] !== 'AUTH', seen);
    };
    expect(await answer('NEG-OPEN', 'x', { kinds: [1] }, '61zz')).toEqual([
      'NEG-ERR',
      'x',
      expect.stringMatching(/^invalid: /),
    ]);
    expect((await answer('NEG-OPEN', 'x', { kinds: [1] }, '20000200'))[2]).toMatch(/^invalid: /);
    expect((await answer('NEG-OPEN', 'x', { kinds: 'one' }, initial()))[2]).toMatch(/^invalid: /);
    expect((await answer('NEG-OPEN', 'x', { kinds: [1] }, '6100ff'))[2]).toMatch(/^invalid: /);
    // A version this relay does not speak: the one it speaks, alone (NIP-77), for the client to retry.
    expect(await answer('NEG-OPEN', 'x', { kinds: [1] }, '62000200')).toEqual(['NEG-MSG', 'x', '61']);
    expect((await answer('NEG-OPEN', 'x', { kinds: [1] }, initial(clientHolds)))[0]).toBe('NEG-MSG');
    client.send('NEG-CLOSE', 'x');
    expect(await answer('NEG-MSG', 'x', '6100000200')).toEqual([
      'NEG-ERR',
      'x',
      'closed: no open reconciliation has this id',
    ]);
    // A stranger never counts the station's logins: a filter of them alone is refused as a REQ is.
    expect((await answer('NEG-OPEN', 'y', { kinds: [22242] }, initial()))[2]).toMatch(/^auth-required: /);
  });

  it('takes NEG-OPENs from the REQ budget of a stranger', async () => {
    await start({ rateExempt: [], limits: { reqsPerSecond: 1, reqBurst: 2 } });
    const client = await raw();
    const answers: unknown[][] = [];
    for (const id of ['r1', 'r2', 'r3']) {
      client.send('NEG-OPEN', id, { kinds: [1] }, initial());
      answers.push(await client.next((frame) => frame[1] === id));
    }
    expect(answers.map((frame) => frame[0])).toEqual(['NEG-MSG', 'NEG-MSG', 'NEG-ERR']);
    expect(answers[2]![2]).toMatch(/^rate-limited: /);
  });
});
