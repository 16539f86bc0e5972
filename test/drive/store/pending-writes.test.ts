import { describe, expect, it, vi } from 'vitest';
import { PendingWrites, type WriteBatch } from '../../../src/drive/store/pending-writes.js';

/** A database that records the batches it is given, and fails the ones it is told to. */
function recordingTarget() {
  const written: WriteBatch[] = [];
  let failures = 0;
  let flushes = 0;
  let onWrite: (() => void) | null = null;
  return {
    written,
    get flushes() {
      return flushes;
    },
    failNext(count = 1) {
      failures = count;
    },
    nextWrite: () => new Promise<void>((resolve) => (onWrite = resolve)),
    target: {
      write: async (batch: WriteBatch) => {
        onWrite?.();
        onWrite = null;
        await new Promise((resolve) => setImmediate(resolve));
        if (failures > 0) {
          failures -= 1;
          throw Object.assign(new Error('MDB_MAP_FULL'), { code: 'ENOSPC' });
        }
        written.push({ blocks: new Map(batch.blocks), pins: new Map(batch.pins) });
      },
      flushed: async () => {
        flushes += 1;
      },
    },
  };
}

const bytes = (text: string) => Buffer.from(text);

describe('pending writes', () => {
  it('writes everything put before a commit in one transaction, readable before and after', async () => {
    const db = recordingTarget();
    const pending = new PendingWrites(db.target, 60_000);
    pending.putBlock('leaf', bytes('leaf'));
    pending.putBlock('wrapper', bytes('wrapper'));
    pending.setPin('wrapper', '2026-11-25T00:00:00.000Z');
    pending.setPin('old-root', null);
    expect(pending.block('leaf')?.toString()).toBe('leaf');
    expect(pending.pin('old-root')).toBeNull();
    await pending.commit();
    expect(db.written).toHaveLength(1);
    expect([...db.written[0]!.blocks.keys()]).toEqual(['leaf', 'wrapper']);
    expect([...db.written[0]!.pins]).toEqual([
      ['wrapper', '2026-11-25T00:00:00.000Z'],
      ['old-root', null],
    ]);
    expect(pending.commits).toBe(1);
    expect(db.flushes).toBe(1);
    // Committed: the database has the last word again.
    expect(pending.block('leaf')).toBeUndefined();
    expect(pending.pin('wrapper')).toBeUndefined();
  });

  it('lets commits that arrive together share a transaction', async () => {
    const db = recordingTarget();
    const pending = new PendingWrites(db.target, 60_000);
    const writing = db.nextWrite();
    pending.putBlock('a', bytes('a'));
    const first = pending.commit();
    await writing;
    // While the first transaction is written, three more publications put their blocks and commit.
    const others = ['b', 'c', 'd'].map((key) => {
      pending.putBlock(key, bytes(key));
      return pending.commit();
    });
    await Promise.all([first, ...others]);
    expect(db.written.map((batch) => [...batch.blocks.keys()])).toEqual([['a'], ['b', 'c', 'd']]);
    expect(pending.commits).toBe(2);
  });

  it('writes one transaction at a time: the commits asked for during one share the next, a lone one starts at once', async () => {
    const db = recordingTarget();
    const pending = new PendingWrites(db.target, 60_000);
    const commitWith = (key: string) => {
      pending.putBlock(key, bytes(key));
      return pending.commit();
    };
    let writing = db.nextWrite();
    const first = commitWith('a');
    await writing;
    // B and C come while A's transaction is written: they share the next one.
    writing = db.nextWrite();
    const second = [commitWith('b'), commitWith('c')];
    await writing;
    // An import puts its leaf while that one is written, and commits later: nobody waits for it meanwhile, so
    // no transaction is started for it (a commit already served must not start one of its own).
    pending.putBlock('x', bytes('x'));
    await Promise.all([first, ...second]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.written.map((batch) => [...batch.blocks.keys()])).toEqual([['a'], ['b', 'c']]);
    // One publication after another (each once the previous is durable): one transaction each, no waiting.
    for (const key of ['d', 'e']) await commitWith(key);
    expect(db.written.map((batch) => [...batch.blocks.keys()])).toEqual([
      ['a'],
      ['b', 'c'],
      ['x', 'd'],
      ['e'],
    ]);
    expect(pending.commits).toBe(4);
    expect(db.flushes).toBe(5);
  });

  it('keeps a failed transaction’s writes, so no later commit says they are durable before they are', async () => {
    const db = recordingTarget();
    const pending = new PendingWrites(db.target, 60_000);
    pending.putBlock('leaf', bytes('leaf'));
    pending.setPin('root', '2026-11-25T00:00:00.000Z');
    db.failNext();
    await expect(pending.commit()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(db.written).toEqual([]);
    // Still readable here, and written by the next commit, with what came since (a newer pin state wins).
    expect(pending.block('leaf')?.toString()).toBe('leaf');
    pending.setPin('root', null);
    pending.putBlock('other', bytes('other'));
    await pending.commit();
    expect(db.written).toHaveLength(1);
    expect([...db.written[0]!.blocks.keys()].sort()).toEqual(['leaf', 'other']);
    expect(db.written[0]!.pins.get('root')).toBeNull();
  });

  it('commits writes nobody commits once idle, and what is left on close', async () => {
    const db = recordingTarget();
    const pending = new PendingWrites(db.target, 5);
    const written = db.nextWrite();
    pending.setPin('old-root', null);
    await written;
    await pending.commit();
    expect(db.written.map((batch) => [...batch.pins.keys()])).toEqual([['old-root']]);
    const idle = new PendingWrites(db.target, 60_000);
    idle.setPin('last', null);
    await idle.close();
    expect(db.written.map((batch) => [...batch.pins.keys()])).toEqual([['old-root'], ['last']]);
  });

  it('sets no timer once closed: a write after close is written only when committed', async () => {
    vi.useFakeTimers();
    try {
      const db = recordingTarget();
      const pending = new PendingWrites(db.target, 5);
      const closing = pending.close();
      await vi.runAllTimersAsync();
      await closing;
      pending.setPin('late', null);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(db.written).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
