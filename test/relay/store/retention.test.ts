import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids, putAll, storeFixture, unsignedEvent, type StoreFixture } from './fixtures.js';

const T = 1_700_000_000;

describe('LMDB event store: retention', () => {
  let f: StoreFixture;
  beforeEach(async () => {
    f = await storeFixture({ maxEvents: 100 });
  });
  afterEach(() => f.cleanup());

  it('evicts the oldest events above the cap, a batch per sweep', async () => {
    const events = Array.from({ length: 350 }, (_, i) => unsignedEvent({ kind: 1, created_at: T + i }));
    await putAll(f.store, events.slice().reverse());
    expect(f.store.health().events).toBe(350);
    const now = f.clock.seconds();
    expect(await f.store.sweep(now, 100)).toBe(100);
    expect(f.store.health().events).toBe(250);
    expect(f.store.query([{ until: T + 99 }], 500)).toEqual([]);
    expect(ids(f.store.query([{ until: T + 100 }], 500))).toEqual([events[100]!.id]);
    expect(await f.store.sweep(now, 100)).toBe(100);
    expect(await f.store.sweep(now, 100)).toBe(50);
    expect(await f.store.sweep(now, 100)).toBe(0);
    expect(f.store.health().events).toBe(100);
    expect(ids(f.store.query([{}], 500))).toEqual(ids(events.slice(250).reverse()));
    expect(f.store.query([{ kinds: [1], since: T, until: T + 249 }], 500)).toEqual([]);
    await f.reopen();
    expect(f.store.health().events).toBe(100);
  });

  it('removes expired events first, within the same batch budget', async () => {
    const now = f.clock.seconds();
    const expiring = Array.from({ length: 30 }, (_, i) =>
      unsignedEvent({ kind: 1, created_at: T + 1_000 + i, tags: [['expiration', `${now + 10}`]] }),
    );
    const plain = Array.from({ length: 120 }, (_, i) => unsignedEvent({ kind: 1, created_at: T + i }));
    await putAll(f.store, [...expiring, ...plain]);
    expect(await f.store.sweep(now + 10, 40)).toBe(40); // 30 expired, then the 10 oldest
    expect(f.store.health().events).toBe(110);
    expect(f.store.query([{ ids: ids(expiring) }], 500)).toEqual([]);
    expect(f.store.query([{ until: T + 9 }], 500)).toEqual([]);
    expect(await f.store.sweep(now + 10, 40)).toBe(10);
    expect(await f.store.sweep(now + 10, 40)).toBe(0);
  });

  it('frees the coordinate of an evicted replaceable event', async () => {
    const pubkey = 'a'.repeat(64);
    await putAll(f.store, [
      unsignedEvent({ kind: 0, pubkey, created_at: T }),
      ...Array.from({ length: 100 }, (_, i) => unsignedEvent({ kind: 1, created_at: T + 10 + i })),
    ]);
    expect(await f.store.sweep(f.clock.seconds())).toBe(1);
    expect(f.store.query([{ kinds: [0] }], 10)).toEqual([]);
    const again = unsignedEvent({ kind: 0, pubkey, created_at: T - 5 });
    expect(await f.store.put(again)).toEqual({ stored: true });
  });
});
