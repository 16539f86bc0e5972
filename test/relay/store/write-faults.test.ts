import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreWriteError } from '../../../src/relay/store/event-store.js';
import { openLmdbEventStore } from '../../../src/relay/store/lmdb-event-store.js';
import { ids, putAll, storeFixture, unsignedEvent, type StoreFixture } from './fixtures.js';
import { canMountTmpfs } from '../../helpers/tmpfs.js';

const T = 1_700_000_000;

function diskError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('LMDB event store: write failures (injected)', () => {
  let f: StoreFixture;
  let failWith: Error | null = null;
  let failOnCall = 0;
  let calls = 0;
  const beforeWrite = () => {
    calls++;
    if (failWith && (failOnCall === 0 || calls === failOnCall)) throw failWith;
  };
  afterEach(async () => {
    failWith = null;
    failOnCall = 0;
    calls = 0;
    await f.cleanup();
  });

  it('rejects with StoreWriteError, keeps nothing of the event, reports it until a write succeeds', async () => {
    f = await storeFixture({ beforeWrite });
    const first = unsignedEvent({ kind: 1, created_at: T, tags: [['t', 'x']] });
    await f.store.put(first);
    const second = unsignedEvent({ kind: 1, created_at: T + 1, tags: [['t', 'x']] });
    failWith = diskError('ENOSPC');
    const error = await f.store.put(second).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreWriteError);
    expect(error).toMatchObject({ code: 'STORE_FULL' });
    expect(f.store.health()).toMatchObject({
      ok: false,
      events: 1,
      error: expect.stringContaining('ENOSPC'),
    });
    expect(f.store.query([{ ids: [second.id] }], 10)).toEqual([]);
    expect(ids(f.store.query([{ '#t': ['x'] }], 10))).toEqual([first.id]);
    expect(f.store.signatureOf(second.id)).toBeUndefined();

    failWith = diskError('EIO');
    await expect(f.store.put(second)).rejects.toMatchObject({ name: 'StoreWriteError', code: 'STORE_IO' });
    failWith = null;
    expect(await f.store.put(second)).toEqual({ stored: true });
    expect(f.store.health()).toEqual({ ok: true, events: 2, error: null });
  });

  it('classifies a full map as STORE_FULL', async () => {
    f = await storeFixture({ beforeWrite });
    failWith = new Error('MDB_MAP_FULL: Environment mapsize limit reached');
    await expect(f.store.put(unsignedEvent({ kind: 1, created_at: T }))).rejects.toMatchObject({
      code: 'STORE_FULL',
    });
  });

  it('leaves the previous version in place when its replacement fails', async () => {
    f = await storeFixture({ beforeWrite });
    const pubkey = 'b'.repeat(64);
    const v1 = unsignedEvent({ kind: 30000, pubkey, created_at: T, tags: [['d', 'list']] });
    const v2 = unsignedEvent({ kind: 30000, pubkey, created_at: T + 1, tags: [['d', 'list']] });
    await f.store.put(v1);
    failWith = diskError('EIO');
    await expect(f.store.put(v2)).rejects.toBeInstanceOf(StoreWriteError);
    expect(ids(f.store.query([{ '#d': ['list'] }], 10))).toEqual([v1.id]);
    expect(f.store.health().events).toBe(1);
    failWith = null;
    expect(await f.store.put(v2)).toEqual({ stored: true });
    expect(ids(f.store.query([{ kinds: [30000] }], 10))).toEqual([v2.id]);
  });

  it('fails only the event whose write failed among puts in flight together', async () => {
    f = await storeFixture({ beforeWrite });
    const events = Array.from({ length: 3 }, (_, i) => unsignedEvent({ kind: 1, created_at: T + i }));
    failWith = diskError('EIO');
    failOnCall = 2;
    const results = await Promise.allSettled(events.map((event) => f.store.put(event)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ids(f.store.query([{}], 10))).toEqual([events[2]!.id, events[0]!.id]);
    expect(f.store.health().events).toBe(2);
  });

  it('rolls a failed sweep back whole', async () => {
    f = await storeFixture({ beforeWrite, maxEvents: 5 });
    await putAll(
      f.store,
      Array.from({ length: 10 }, (_, i) => unsignedEvent({ kind: 1, created_at: T + i })),
    );
    failWith = diskError('EIO');
    await expect(f.store.sweep(f.clock.seconds())).rejects.toMatchObject({ code: 'STORE_IO' });
    expect(f.store.health()).toMatchObject({ ok: false, events: 10 });
    expect(f.store.query([{}], 100)).toHaveLength(10);
    failWith = null;
    expect(await f.store.sweep(f.clock.seconds())).toBe(5);
    expect(f.store.health()).toMatchObject({ ok: true, events: 5 });
  });
});

describe('LMDB event store: a real full disk', () => {
  it.skipIf(!canMountTmpfs())(
    'refuses writes with STORE_FULL on a full tmpfs and recovers once space is freed',
    async () => {
      // lmdb-js logs the failed commit itself; the test checks what the store makes of it.
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
      const mountPoint = mkdtempSync(join(tmpdir(), 'tmpfs-store-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
      try {
        const store = await openLmdbEventStore({ path: join(mountPoint, 'store') });
        try {
          const { bavail, bsize } = statfsSync(mountPoint);
          const filler = join(mountPoint, 'filler');
          writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)));
          const content = 'x'.repeat(2_000);
          let stored = 0;
          let failure: unknown = null;
          let failed = unsignedEvent({ kind: 1, created_at: T, content });
          for (let i = 0; i < 1_000 && !failure; i++) {
            failed = unsignedEvent({ kind: 1, created_at: T + i, content });
            try {
              await store.put(failed);
              stored++;
            } catch (error) {
              failure = error;
            }
          }
          expect(failure).toBeInstanceOf(StoreWriteError);
          expect(failure).toMatchObject({ code: 'STORE_FULL' });
          expect(stored).toBeGreaterThan(0);
          expect(store.health()).toMatchObject({ ok: false, events: stored });
          expect(store.query([{ ids: [failed.id] }], 10)).toEqual([]);

          rmSync(filler);
          expect(await store.put(failed)).toEqual({ stored: true });
          expect(store.health()).toEqual({ ok: true, events: stored + 1, error: null });
          expect(store.query([{}], 5_000)).toHaveLength(stored + 1);
        } finally {
          await store.close();
        }
      } finally {
        execFileSync('umount', [mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
        quiet.mockRestore();
      }
    },
  );

  it.skipIf(!canMountTmpfs())(
    'calls a write that fails without saying why STORE_FULL when the disk has no room left, STORE_IO otherwise',
    async () => {
      // lmdb-js may tell a commit's real error only with a later commit: on a busy machine the store has to
      // judge without it, and a full disk must not then pass for an I/O error.
      const mountPoint = mkdtempSync(join(tmpdir(), 'tmpfs-store-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
      let failWith: Error | null = null;
      try {
        const store = await openLmdbEventStore({
          path: join(mountPoint, 'store'),
          beforeWrite: () => {
            if (failWith) throw failWith;
          },
        });
        try {
          failWith = new Error('Commit failed (see commitError for details)');
          const roomy = await store.put(unsignedEvent({ kind: 1, created_at: T })).catch((e: unknown) => e);
          expect(roomy).toMatchObject({ name: 'StoreWriteError', code: 'STORE_IO' });
          const { bavail, bsize } = statfsSync(mountPoint);
          writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(bavail * bsize - 64 * 1024));
          const full = await store
            .put(unsignedEvent({ kind: 1, created_at: T + 1 }))
            .catch((e: unknown) => e);
          expect(full).toMatchObject({ name: 'StoreWriteError', code: 'STORE_FULL' });
        } finally {
          await store.close();
        }
      } finally {
        execFileSync('umount', [mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
      }
    },
  );
});
