import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verificationStats } from '../../../src/nostr/verify.js';
import { openLmdbEventStore } from '../../../src/relay/store/lmdb-event-store.js';
import { putAll, storeFixture, unsignedEvent, type StoreFixture } from './fixtures.js';

/**
 * Every LMDB environment opened in this file counts its reads: lmdb-js makes one store class per environment,
 * so its prototype is wrapped as soon as `open` returns, before the event store runs any code on it.
 */
const reads = vi.hoisted(() => ({ ranges: 0, gets: 0 }));
vi.mock('lmdb', async (importOriginal) => {
  const lmdb = await importOriginal<typeof import('lmdb')>();
  const open = (...args: unknown[]) => {
    const root = (lmdb.open as (...a: unknown[]) => ReturnType<typeof lmdb.open>)(...args);
    const proto = Object.getPrototypeOf(root) as Record<string, (...a: unknown[]) => unknown>;
    if (!Object.hasOwn(proto, '__counted')) {
      const { getRange, get } = proto;
      proto.getRange = function (this: unknown, ...a: unknown[]) {
        reads.ranges++;
        return getRange!.apply(this, a);
      };
      proto.get = function (this: unknown, ...a: unknown[]) {
        reads.gets++;
        return get!.apply(this, a);
      };
      Object.defineProperty(proto, '__counted', { value: true });
    }
    return root;
  };
  return { ...lmdb, open, default: { ...lmdb, open } };
});

const T = 1_700_000_000;

describe('LMDB event store: opening', () => {
  let f: StoreFixture;
  beforeAll(async () => {
    f = await storeFixture();
    await putAll(
      f.store,
      Array.from({ length: 20_000 }, (_, i) =>
        unsignedEvent({ kind: 1 + (i % 3), created_at: T + i, tags: [['t', `tag${i % 50}`]] }),
      ),
      2_000,
    );
    await f.store.close();
  }, 120_000);
  afterAll(() => f.cleanup());

  it('opens a store of 20,000 events without reading or verifying them', async () => {
    const checks = verificationStats.checks;
    reads.ranges = 0;
    reads.gets = 0;
    f.store = await openLmdbEventStore({ path: f.path, clock: f.clock });
    expect(reads.ranges).toBe(0);
    expect(reads.gets).toBeLessThanOrEqual(2);
    expect(f.store.health()).toEqual({ ok: true, events: 20_000, error: null });
    expect(verificationStats.checks).toBe(checks);

    // The counting works: a query does read ranges.
    expect(f.store.query([{ kinds: [2], '#t': ['tag7'] }], 500).length).toBeGreaterThan(0);
    expect(reads.ranges).toBeGreaterThan(0);
    expect(verificationStats.checks).toBe(checks);
  });
});
