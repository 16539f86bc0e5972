import { execFile } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentExecutor } from '../../src/economy/payments/executor.js';
import { PaymentJournal } from '../../src/economy/payments/journal.js';
import type { PaymentRecord } from '../../src/economy/payments/record.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { id, sampleRecord } from '../economy/payments/records.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('station payments (operator CLI)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let journal: PaymentJournal;

  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'payments', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path, TMP_DIR: join(dir.path, 'tmp') },
    });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  beforeAll(async () => {
    dir = await tempDir('payments-cli-');
    journal = await new PaymentJournal(join(dir.path, 'tmp', 'payments')).init();
    const states: [number, PaymentRecord['status']][] = [
      [1, 'sent'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'interrupted'],
      [5, 'queued'],
    ];
    for (const [n, status] of states)
      await journal.create(
        sampleRecord(id(n), { status, attempts: 1, created_at: `2026-11-22T10:00:0${n}.000` }),
      );
  });
  afterAll(() => dir.cleanup());

  it('lists the journal, optionally by status', async () => {
    const all = await station('list');
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t').slice(0, 3)),
    ).toEqual([
      ['reaction id', 'status', 'amount'],
      [id(1), 'sent', '0.1 Ğ1'],
      [id(2), 'failed', '0.1 Ğ1'],
      [id(3), 'failed', '0.1 Ğ1'],
      [id(4), 'interrupted', '0.1 Ğ1'],
      [id(5), 'queued', '0.1 Ğ1'],
    ]);
    const failed = JSON.parse(
      (await station('list', '--status', 'failed', '--json')).stdout,
    ) as PaymentRecord[];
    expect(failed.map((record) => record.id)).toEqual([id(2), id(3)]);
    expect(await failure(station('list', '--status', 'lost'))).toMatchObject({ code: 2 });
  });

  it('re-queues an interrupted payment once the operator asks, and refuses to resend a sent one', async () => {
    expect((await station('retry', id(4))).stdout).toContain('queued (was interrupted)');
    expect(await journal.read(id(4))).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await failure(station('retry', id(1)))).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('is sent'),
    });
    expect(await failure(station('retry', 'xyz'))).toMatchObject({ code: 2 });
  });

  it('re-queues every failed payment, which a running service then pays once', async () => {
    const out = (await station('retry', '--failed')).stdout.trim().split('\n');
    expect(out).toEqual([`${id(2)}: queued (was failed)`, `${id(3)}: queued (was failed)`]);
    expect((await journal.openIds()).sort()).toEqual([id(2), id(3), id(4), id(5)]);

    const script = join(dir.path, 'pay.sh');
    await writeFile(script, `#!/bin/sh\necho "$1" >> '${join(dir.path, 'paid')}'\n`);
    await chmod(script, 0o755);
    const executor = new PaymentExecutor({
      journal,
      clock: { now: () => Date.now() },
      command: [script, '{comment}'],
      dunikeyPath: () => '/nonexistent',
      scanIntervalMs: 100,
    });
    executor.start();
    try {
      await waitFor(() => executor.stats.sent === 4);
    } finally {
      await executor.stop();
    }
    const paid = (await readFile(join(dir.path, 'paid'), 'utf8')).trim().split('\n');
    expect(paid.map((comment) => comment.slice(-64)).sort()).toEqual([id(2), id(3), id(4), id(5)]);
  });
});
