import { mkdir, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DailyCap } from '../../../src/economy/payments/daily-cap.js';
import { PaymentJournal } from '../../../src/economy/payments/journal.js';
import { transition } from '../../../src/economy/payments/record.js';
import { tempDir } from '../../helpers/temp.js';
import { id, sampleRecord } from './records.js';

describe('payment journal', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let root: string;
  beforeEach(async () => {
    dir = await tempDir('journal-');
    root = join(dir.path, 'payments');
  });
  afterEach(() => dir.cleanup());

  it('lets exactly one of many concurrent writers, in two journals, create a reaction', async () => {
    const [a, b] = await Promise.all([new PaymentJournal(root).init(), new PaymentJournal(root).init()]);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).create(sampleRecord(id(1), { last_output: `writer ${i}` })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await a.read(id(1)))?.last_output).toBe(`writer ${winner}`);
    // No temporary file is left behind, and no reader ever saw half a record.
    expect(await readdir(a.records)).toEqual([`${id(1)}.json`]);
  });

  it('keeps open markers for records that still need work only', async () => {
    const journal = await new PaymentJournal(root).init();
    await journal.create(sampleRecord(id(1)));
    await journal.create(sampleRecord(id(2), { status: 'capped' }));
    expect(await journal.openIds()).toEqual([id(1)]);
    const record = (await journal.read(id(1)))!;
    await journal.write(transition(record, 'sent', '2026-11-22T10:00:01.000'));
    expect(await journal.openIds()).toEqual([]);
    expect((await journal.read(id(1)))?.history.map((entry) => entry.status)).toEqual(['queued', 'sent']);
    expect(await journal.has(id(1))).toBe(true);
    expect(await journal.has(id(3))).toBe(false);
    expect(() => journal.recordPath('../../etc/passwd')).toThrow(RangeError);
  });

  it('gives a record lock to one holder at a time, and treats a lock left by a dead process as free', async () => {
    const [a, b] = await Promise.all([
      new PaymentJournal(root, { lockStaleMs: 2_000 }).init(),
      new PaymentJournal(root, { lockStaleMs: 2_000 }).init(),
    ]);
    await a.create(sampleRecord(id(1)));
    const inside = await a.withLock(id(1), async () => ({
      other: await b.withLock(id(1), async () => 'ran'),
      locked: await b.isLocked(id(1)),
    }));
    expect(inside).toEqual({ value: { other: null, locked: true } });
    expect(await b.isLocked(id(1))).toBe(false);
    // A crashed holder: its lock directory stays but is no longer refreshed.
    const lock = join(a.locks, `${id(1)}.lock`);
    await mkdir(lock);
    expect(await b.isLocked(id(1))).toBe(true);
    const past = new Date(Date.now() - 60_000);
    await utimes(lock, past, past);
    expect(await b.isLocked(id(1))).toBe(false);
    expect(await b.withLock(id(1), async () => 'taken over')).toEqual({ value: 'taken over' });
  });
});

describe('daily cap', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('cap-');
  });
  afterEach(() => dir.cleanup());
  const payer = 'a'.repeat(64);

  it('counts a reaction once and refuses what would exceed the cap', async () => {
    const cap = new DailyCap(dir.path, 10);
    expect(await cap.reserve('2026-11-22', payer, id(1), 6)).toBe('within');
    expect(await cap.reserve('2026-11-22', payer, id(1), 6)).toBe('within');
    expect(await cap.reserve('2026-11-22', payer, id(2), 5)).toBe('over');
    expect(await cap.reserve('2026-11-22', payer, id(3), 4)).toBe('within');
    expect(await cap.reserve('2026-11-23', payer, id(4), 10)).toBe('within');
    expect(await cap.spent('2026-11-22', payer)).toBe(10);
  });

  it('holds across two processes racing for the same allowance', async () => {
    const [a, b] = [new DailyCap(dir.path, 10), new DailyCap(dir.path, 10)];
    const verdicts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).reserve('2026-11-22', payer, id(i), 1)),
    );
    expect(verdicts.filter((verdict) => verdict === 'within')).toHaveLength(10);
    expect(await a.spent('2026-11-22', payer)).toBe(10);
  });

  it('forgets days older than a week', async () => {
    const cap = new DailyCap(dir.path, 10);
    await cap.reserve('2026-11-01', payer, id(1), 1);
    await cap.reserve('2026-11-20', payer, id(2), 1);
    await cap.sweep('2026-11-22');
    expect(await readdir(dir.path)).toEqual(['2026-11-20']);
  });
});
