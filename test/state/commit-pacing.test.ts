import { describe, expect, it } from 'vitest';
import { CommitPacing, GroupedTransactions, type PacingClock } from '../../src/state/commit-pacing.js';
import { pacingClock } from '../helpers/pacing-clock.js';

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('commit pacing', () => {
  it('spaces the transactions of writers that overlap by the gap', async () => {
    const time = pacingClock();
    const pacing = new CommitPacing(10, time.clock);
    const first = pacing.arrive();
    await pacing.turn();
    expect(time.sleeps).toEqual([]);
    // A second writer comes while the first is still in line: its transaction waits out the gap.
    const second = pacing.arrive();
    first();
    time.advance(4);
    const turn = pacing.turn();
    await turns();
    expect(time.sleeps.map((sleep) => sleep.ms)).toEqual([6]);
    time.wakeFirst();
    await turn;
    second();
  });

  it('never delays one writer after another, however close together', async () => {
    const time = pacingClock();
    const pacing = new CommitPacing(10, time.clock);
    for (let n = 0; n < 5; n++) {
      const leave = pacing.arrive();
      await pacing.turn();
      leave();
      time.advance(1);
    }
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
