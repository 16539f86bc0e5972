import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Filter, NostrEvent } from 'nostr-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newKey, signEvent, type TestKey } from '../../helpers/nostr.js';
import { ids, putAll, storeFixture, unsignedEvent, type StoreFixture } from './fixtures.js';

const T = 1_700_000_000;

describe('LMDB event store: queries', () => {
  let f: StoreFixture;
  let alice: TestKey;
  let bob: TestKey;
  let events: Record<string, NostrEvent>;
  beforeEach(async () => {
    f = await storeFixture();
    alice = newKey();
    bob = newKey();
    events = {
      note: signEvent(alice, { kind: 1, created_at: T + 1, tags: [['t', 'nostr']], content: 'a' }),
      reply: signEvent(bob, {
        kind: 1,
        created_at: T + 2,
        tags: [
          ['e', 'a'.repeat(64)],
          ['p', alice.hex],
        ],
      }),
      place: signEvent(alice, { kind: 7, created_at: T + 3, tags: [['g', 'u09tun']] }),
      article: signEvent(bob, {
        kind: 30023,
        created_at: T + 4,
        tags: [
          ['d', 'intro'],
          ['t', 'Nostr'],
        ],
      }),
      other: signEvent(bob, { kind: 1, created_at: T + 5, tags: [['k', '1']] }),
    };
    for (const event of Object.values(events)) expect(await f.store.put(event)).toEqual({ stored: true });
  });
  afterEach(() => f.cleanup());

  const q = (filter: Filter, limit = 100) => ids(f.store.query([filter], limit));

  it('answers each filter field', () => {
    const { note, reply, place, article, other } = events as Record<string, NostrEvent>;
    expect(q({ ids: [note!.id, place!.id] })).toEqual([place!.id, note!.id]);
    expect(q({ authors: [alice.hex] })).toEqual([place!.id, note!.id]);
    expect(q({ kinds: [1] })).toEqual([other!.id, reply!.id, note!.id]);
    expect(q({ authors: [bob.hex], kinds: [1, 30023] })).toEqual([other!.id, article!.id, reply!.id]);
    expect(q({ '#e': ['a'.repeat(64)] })).toEqual([reply!.id]);
    expect(q({ '#p': [alice.hex] })).toEqual([reply!.id]);
    expect(q({ '#t': ['nostr'] })).toEqual([note!.id]);
    expect(q({ '#t': ['nostr', 'Nostr'] })).toEqual([article!.id, note!.id]);
    expect(q({ '#g': ['u09tun'] })).toEqual([place!.id]);
    expect(q({ '#d': ['intro'] })).toEqual([article!.id]);
    expect(q({ '#k': ['1'] })).toEqual([other!.id]); // not indexed: checked after the time index
    expect(q({ since: T + 4 })).toEqual([other!.id, article!.id]);
    expect(q({ until: T + 2 })).toEqual([reply!.id, note!.id]);
    expect(q({ since: T + 2, until: T + 3 })).toEqual([place!.id, reply!.id]);
    expect(q({ kinds: [1], '#t': ['nostr'], authors: [alice.hex], since: T, until: T + 1 })).toEqual([
      note!.id,
    ]);
    expect(q({ since: T + 3, until: T + 2 })).toEqual([]);
  });

  it('matches nothing for an empty list or a zero limit', () => {
    expect(q({ ids: [] })).toEqual([]);
    expect(q({ authors: [] })).toEqual([]);
    expect(q({ kinds: [] })).toEqual([]);
    expect(q({ '#k': [] })).toEqual([]);
    expect(q({ limit: 0 })).toEqual([]);
    expect(q({}, 0)).toEqual([]);
  });

  it('returns newest first, cut to each filter limit and to the overall limit, without duplicates', () => {
    const { note, reply, place, article, other } = events as Record<string, NostrEvent>;
    expect(q({ limit: 2 })).toEqual([other!.id, article!.id]);
    expect(q({}, 3)).toEqual([other!.id, article!.id, place!.id]);
    const both = f.store.query([{ authors: [alice.hex], limit: 1 }, { kinds: [1] }, { ids: [note!.id] }], 10);
    expect(ids(both)).toEqual([other!.id, place!.id, reply!.id, note!.id]);
    expect(ids(f.store.query([{ kinds: [1] }, { authors: [bob.hex] }], 2))).toEqual([other!.id, article!.id]);
  });

  it('orders events of the same second by id, also at the limit boundary', async () => {
    const same = Array.from({ length: 6 }, (_, i) =>
      signEvent(alice, { kind: 9, created_at: T + 100, content: `${i}` }),
    );
    await putAll(f.store, same);
    const sorted = ids(same).sort();
    expect(q({ kinds: [9] })).toEqual(sorted);
    expect(q({ kinds: [9], limit: 2 })).toEqual(sorted.slice(0, 2));
    expect(q({ authors: [alice.hex], kinds: [9, 10] }, 1)).toEqual(sorted.slice(0, 1));
  });

  it('serves many authors with many kinds from the author index', async () => {
    const kinds = [...Array.from({ length: 600 }, (_, i) => i + 1), 30023];
    expect(q({ authors: [alice.hex, bob.hex], kinds })).toHaveLength(5);
    expect(q({ authors: [alice.hex, bob.hex], kinds, limit: 2 })).toEqual([
      events.other!.id,
      events.article!.id,
    ]);
  });

  it('stops a query after its scan budget', async () => {
    await f.reopen({ maxScanned: 3 });
    expect(q({ '#k': ['1'] })).toEqual([events.other!.id]);
    expect(q({ '#k': ['nope'] })).toEqual([]);
    expect(q({ kinds: [1, 7, 30023] })).toHaveLength(3);
  });

  it('refuses a duplicate and gives the signature of stored events', async () => {
    const { note } = events as Record<string, NostrEvent>;
    expect(await f.store.put(note!)).toMatchObject({ stored: false, reason: 'duplicate' });
    expect(f.store.signatureOf(note!.id)).toBe(note!.sig);
    expect(f.store.signatureOf('f'.repeat(64))).toBeUndefined();
    expect(f.store.health()).toEqual({ ok: true, events: 5, error: null });
  });

  it('keeps events and the counter across close and reopen', async () => {
    await f.reopen();
    expect(f.store.health().events).toBe(5);
    expect(q({})).toHaveLength(5);
    expect(q({ '#t': ['nostr'] })).toEqual([events.note!.id]);
  });

  it('sees what another process writes to the same path', async () => {
    const late = signEvent(alice, { kind: 1, created_at: T + 50, content: 'from elsewhere' });
    const script = [
      "import { openLmdbEventStore } from './src/relay/store/lmdb-event-store.ts';",
      `const store = await openLmdbEventStore({ path: ${JSON.stringify(f.path)} });`,
      `const result = await store.put(${JSON.stringify(late)});`,
      'console.log(JSON.stringify({ result, events: store.health().events }));',
      'await store.close();',
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: process.cwd(), timeout: 20_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ result: { stored: true }, events: 6 });
    await new Promise((resolve) => setTimeout(resolve, 5)); // the next event turn reads a fresh snapshot
    expect(q({ ids: [late.id] })).toEqual([late.id]);
    expect(f.store.health().events).toBe(6);
  });
});

describe('LMDB event store: replaceable and addressable events', () => {
  let f: StoreFixture;
  let alice: TestKey;
  beforeEach(async () => {
    f = await storeFixture();
    alice = newKey();
  });
  afterEach(() => f.cleanup());

  const profiles = () => ids(f.store.query([{ kinds: [0] }], 10));

  it('keeps the newest version of a replaceable event, whatever the arrival order', async () => {
    const v1 = signEvent(alice, { kind: 0, created_at: T, content: '{"name":"a"}' });
    const v2 = signEvent(alice, { kind: 0, created_at: T + 10, content: '{"name":"b"}' });
    expect(await f.store.put(v1)).toEqual({ stored: true });
    expect(await f.store.put(v2)).toEqual({ stored: true });
    expect(profiles()).toEqual([v2.id]);
    expect(await f.store.put(v1)).toMatchObject({ stored: false, reason: 'replaced' });
    const v0 = signEvent(alice, { kind: 0, created_at: T - 10 });
    expect(await f.store.put(v0)).toMatchObject({ stored: false, reason: 'replaced' });
    expect(profiles()).toEqual([v2.id]);
    expect(f.store.health().events).toBe(1);
    expect(f.store.query([{ ids: [v1.id, v0.id] }], 10)).toEqual([]);
  });

  it('breaks a tie of created_at by the lowest id', async () => {
    const [low, high] = [0, 1]
      .map((i) => signEvent(alice, { kind: 10002, created_at: T, content: `${i}` }))
      .sort((a, b) => (a.id < b.id ? -1 : 1)) as [NostrEvent, NostrEvent];
    expect(await f.store.put(high)).toEqual({ stored: true });
    expect(await f.store.put(low)).toEqual({ stored: true });
    expect(await f.store.put(high)).toMatchObject({ stored: false, reason: 'replaced' });
    expect(ids(f.store.query([{ kinds: [10002] }], 10))).toEqual([low.id]);
  });

  it('replaces addressable events per d tag', async () => {
    const a1 = signEvent(alice, { kind: 30023, created_at: T, tags: [['d', 'one']] });
    const b1 = signEvent(alice, { kind: 30023, created_at: T + 1, tags: [['d', 'two']] });
    const a2 = signEvent(alice, { kind: 30023, created_at: T + 2, tags: [['d', 'one']], content: 'edited' });
    const noD = signEvent(alice, { kind: 30023, created_at: T + 3 });
    for (const event of [a1, b1, a2, noD]) expect(await f.store.put(event)).toEqual({ stored: true });
    expect(ids(f.store.query([{ kinds: [30023] }], 10))).toEqual([noD.id, a2.id, b1.id]);
    expect(ids(f.store.query([{ '#d': ['one'] }], 10))).toEqual([a2.id]);
    expect(f.store.health().events).toBe(3);
  });

  it('lets exactly one of concurrent versions win', async () => {
    const versions = Array.from({ length: 20 }, (_, i) =>
      signEvent(alice, { kind: 3, created_at: T + (i % 7) }),
    );
    const results = await Promise.all(versions.map((event) => f.store.put(event)));
    const best = versions.filter((e) => e.created_at === T + 6).sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
    expect(ids(f.store.query([{ kinds: [3] }], 10))).toEqual([best.id]);
    expect(results.filter((r) => r.stored).length).toBeGreaterThanOrEqual(1);
    expect(f.store.health().events).toBe(1);
  });

  it('indexes long tag values by their prefix and still matches them exactly', async () => {
    const long = 'x'.repeat(300);
    const a = signEvent(alice, { kind: 1, created_at: T, tags: [['t', long]] });
    const b = signEvent(alice, { kind: 1, created_at: T + 1, tags: [['t', `${long}y`]] });
    const nul = signEvent(alice, { kind: 30000, created_at: T + 2, tags: [['d', 'a\u0000b']] });
    await putAll(f.store, [a, b, nul]);
    expect(ids(f.store.query([{ '#t': [long] }], 10))).toEqual([a.id]);
    expect(ids(f.store.query([{ '#d': ['a\u0000b'] }], 10))).toEqual([nul.id]);
    expect(ids(f.store.query([{ '#d': ['a\u0001b'] }], 10))).toEqual([]);
  });
});

describe('LMDB event store: bulk', () => {
  it('answers from a few thousand events through each index', async () => {
    const f = await storeFixture();
    try {
      const authors = ['1', '2', '3'].map((c) => c.repeat(64));
      const events = Array.from({ length: 3_000 }, (_, i) =>
        unsignedEvent({
          kind: i % 5,
          pubkey: authors[i % 3],
          created_at: T + i,
          tags: [['t', `t${i % 10}`]],
        }),
      );
      await putAll(
        f.store,
        events.filter((e) => e.kind !== 0 && e.kind !== 3),
      );
      const got = f.store.query([{ kinds: [1], authors: [authors[0]!], '#t': ['t1', 't4'], limit: 20 }], 500);
      const want = events
        .filter((e) => e.kind === 1 && e.pubkey === authors[0] && ['t1', 't4'].includes(e.tags[0]![1]!))
        .sort((a, b) => b.created_at - a.created_at)
        .slice(0, 20);
      expect(ids(got)).toEqual(ids(want));
      expect(f.store.query([{ since: T + 100, until: T + 199 }], 500)).toHaveLength(60);
    } finally {
      await f.cleanup();
    }
  });
});
