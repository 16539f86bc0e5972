import { describe, expect, it } from 'vitest';
import { CommitPacing, GroupedTransactions, type PacingClock } from '../../src/state/commit-pacing.js';
import { pacingClock } from '../helpers/pacing-clock.js';

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('commit pacing', () => {
  it('lets a transaction start at once after a quiet spell, and spaces the next ones by the gap', async () => {
    const time = pacingClock();
    const pacing = new CommitPacing(10, time.clock);
    await pacing.turn();
    expect(time.sleeps).toEqual([]);
    time.advance(4);
    const second = pacing.turn();
    await turns();
    expect(time.sleeps.map((sleep) => sleep.ms)).toEqual([6]);
    time.wakeFirst();
    await second;
    time.advance(25);
    await pacing.turn();
    expect(time.sleeps).toEqual([]);
  });
});

describe('grouped transactions', () => {
  function recordingStore(clock: PacingClock) {
    const transactions: string[][] = [];
    let current: string[] | null = null;
    let failNext = false;
    const grouped = new GroupedTransactions(
      async (body) => {
        await turns();
        current = [];
        body();
        const ran = current;
        current = null;
        if (failNext) {
          failNext = false;
          throw new Error('MDB_MAP_FULL');
        }
        transactions.push(ran);
      },
      new CommitPacing(10, clock),
    );
    const op = (name: string) => () => current!.push(name);
    return {
      transactions,
      grouped,
      op,
      failNext: () => {
        failNext = true;
      },
    };
  }

  it('runs the operations that arrive during a transaction and its gap together, in order', async () => {
    const time = pacingClock();
    const store = recordingStore(time.clock);
    const first = store.grouped.run(store.op('a'));
    await turns();
    // The first transaction has taken its operation; these come while it runs.
    const more = ['b', 'c', 'd', 'e'].map((name) => store.grouped.run(store.op(name)));
    await first;
    // The next transaction waits out the gap: what arrives meanwhile joins it.
    const late = store.grouped.run(store.op('f'));
    await turns();
    time.wakeFirst();
    await Promise.all([...more, late]);
    expect(store.transactions).toEqual([['a'], ['b', 'c', 'd', 'e', 'f']]);
  });

  it('fails only the callers of a failed transaction; the next one runs', async () => {
    const time = pacingClock();
    const store = recordingStore(time.clock);
    store.failNext();
    await expect(store.grouped.run(store.op('lost'))).rejects.toThrow('MDB_MAP_FULL');
    time.advance(10);
    await store.grouped.run(store.op('kept'));
    expect(store.transactions).toEqual([['kept']]);
  });
});
