import { randomBytes } from 'node:crypto';
import { nip77 } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { CompactStorage } from '../../../src/relay/negentropy-storage.js';
import type { EventStore } from '../../../src/relay/store/event-store.js';
import type { IdPair, IdPairs } from '../../../src/relay/store/id-pairs.js';
import { openLmdbEventStore } from '../../../src/relay/store/lmdb-event-store.js';
import { newKey, signEvent } from '../../helpers/nostr.js';
import { tempDir } from '../../helpers/temp.js';

function drain(pairs: IdPairs, chunk = 3): IdPair[] {
  const all: IdPair[] = [];
  for (let page = pairs.next(chunk); page.length > 0; page = pairs.next(chunk)) all.push(...page);
  return all;
}

const ascending = (pairs: IdPair[]) =>
  [...pairs].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

/** The store's NIP-77 reader: (created_at, id) pairs from the indexes, oldest first, capped. */
describe('event store: idsMatching', () => {
  let store: EventStore;
  let cleanup: () => Promise<void>;
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  async function filled() {
    const dir = await tempDir('id-pairs-');
    cleanup = dir.cleanup;
    store = await openLmdbEventStore({ path: dir.path });
    const [alice, bob] = [newKey(), newKey()];
    const base = 1_700_000_000;
    const events = [];
    // Several events a second, so that ids decide the order inside one second.
    for (let i = 0; i < 40; i++) {
      const key = i % 2 ? alice : bob;
      const tags =
        i % 3 === 0
          ? [
              ['t', 'a'],
              ['t', 'b'],
            ]
          : i % 3 === 1
            ? [['t', 'b']]
            : [];
      events.push(signEvent(key, { kind: i % 4 === 0 ? 7 : 1, created_at: base + Math.floor(i / 3), tags }));
    }
    for (const event of events) await store.put(event);
    return { events, alice, bob };
  }

  it('gives every pair of a filter in ascending order, once, across several index ranges', async () => {
    const { events, alice, bob } = await filled();
    const pairOf = (e: (typeof events)[number]): IdPair => [e.created_at, e.id];
    const all = drain(store.idsMatching({}, 1_000));
    expect(all).toEqual(ascending(events.map(pairOf)));
    // Two authors: two ranges of by-author merged.
    expect(drain(store.idsMatching({ authors: [alice.hex, bob.hex] }, 1_000))).toEqual(all);
    // An event tagged both a and b comes once.
    const tagged = events.filter((e) => e.tags.length > 0).map(pairOf);
    expect(drain(store.idsMatching({ '#t': ['a', 'b'] }, 1_000))).toEqual(ascending(tagged));
    // A filter the index does not decide alone (kinds beside a tag): its events are checked.
    const both = events.filter((e) => e.kind === 7 && e.tags.length > 0).map(pairOf);
    expect(drain(store.idsMatching({ '#t': ['a', 'b'], kinds: [7] }, 1_000))).toEqual(ascending(both));
    // since / until bound the ranges.
    const window = events.filter((e) => e.created_at >= 1_700_000_003 && e.created_at <= 1_700_000_005);
    const bounded = store.idsMatching({ since: 1_700_000_003, until: 1_700_000_005 }, 1_000);
    expect(drain(bounded)).toEqual(ascending(window.map(pairOf)));
    // Hidden kinds are left out.
    const notes = events.filter((e) => e.kind !== 7).map(pairOf);
    expect(drain(store.idsMatching({}, 1_000, { hiddenKinds: [7] }))).toEqual(ascending(notes));
    expect(drain(store.idsMatching({ kinds: [] }, 1_000))).toEqual([]);
  });

  it('stops after max index entries and says so', async () => {
    const { events } = await filled();
    const capped = store.idsMatching({}, 10);
    const read = drain(capped, 4);
    expect(read).toEqual(ascending(events.map((e) => [e.created_at, e.id] as const)).slice(0, 10));
    expect(capped.over).toBe(true);
    const exact = store.idsMatching({}, events.length);
    expect(drain(exact)).toHaveLength(events.length);
    expect(exact.over).toBe(false);
  });
});

describe('CompactStorage', () => {
  it('answers as nostr-tools’ NegentropyStorageVector does', () => {
    const items = Array.from({ length: 2_000 }, (_, i) => ({
      at: 1_700_000_000 + Math.floor(i / 7),
      id: randomBytes(32).toString('hex'),
    })).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const library = new nip77.NegentropyStorageVector();
    const compact = new CompactStorage();
    for (const { at, id } of items) {
      library.insert(at, id);
      compact.insert(at, id);
    }
    library.seal();
    compact.seal();
    expect(compact.size()).toBe(library.size());
    for (const [begin, end] of [
      [0, 2_000],
      [0, 0],
      [5, 6],
      [100, 1_733],
      [1_999, 2_000],
    ] as const)
      expect(Buffer.from(compact.fingerprint(begin, end))).toEqual(
        Buffer.from(library.fingerprint(begin, end)),
      );
    const bound = { timestamp: items[500]!.at, id: Buffer.from(items[500]!.id, 'hex').subarray(0, 1) };
    expect(compact.findLowerBound(0, 2_000, bound)).toBe(library.findLowerBound(0, 2_000, bound));
    expect(Buffer.from(compact.getItem(42).id)).toEqual(Buffer.from(library.getItem(42).id));
    // Same messages both ways.
    const client = new nip77.Negentropy(library);
    const first = client.initiate();
    expect(new nip77.Negentropy(compact).reconcile(first)).toBe(
      new nip77.Negentropy(library).reconcile(first),
    );
    // Out of order is refused; keepNewest keeps the last records.
    const unordered = new CompactStorage();
    unordered.insert(2, items[0]!.id);
    unordered.insert(1, items[1]!.id);
    expect(() => unordered.seal()).toThrow(/ascending/);
    const newest = new CompactStorage();
    for (const { at, id } of items.slice(0, 10)) newest.insert(at, id);
    newest.keepNewest(3);
    newest.seal();
    expect(newest.size()).toBe(3);
    expect(Buffer.from(newest.getItem(0).id).toString('hex')).toBe(items[7]!.id);
  });
});
