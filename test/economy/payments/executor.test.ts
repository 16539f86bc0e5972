import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentExecutor, type ExecutorOptions } from '../../../src/economy/payments/executor.js';
import { PaymentJournal } from '../../../src/economy/payments/journal.js';
import { waitFor } from '../../helpers/relay.js';
import { tempDir } from '../../helpers/temp.js';
import { id, sampleRecord } from './records.js';

describe('payment executor', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let journal: PaymentJournal;
  const executors: PaymentExecutor[] = [];
  const calls = () =>
    readFile(join(dir.path, 'calls'), 'utf8').then(
      (text) => text.split('\n').filter(Boolean),
      () => [],
    );

  async function command(body: string): Promise<string[]> {
    const path = join(dir.path, `pay-${executors.length}.sh`);
    await writeFile(path, `#!/bin/sh\necho "$1" >> '${join(dir.path, 'calls')}'\n${body}\n`);
    await chmod(path, 0o755);
    return [path, '{comment}'];
  }

  function executor(cmd: string[] | null, options: Partial<ExecutorOptions> = {}): PaymentExecutor {
    const created = new PaymentExecutor({
      journal,
      clock: { now: () => Date.now() },
      command: cmd,
      dunikeyPath: (email) => `/nonexistent/${email}/.secret.dunikey`,
      retryBaseMs: 20,
      scanIntervalMs: 100,
      ...options,
    });
    executors.push(created);
    created.start();
    return created;
  }

  const status = async (n: number) => (await journal.read(id(n)))?.status;

  beforeEach(async () => {
    dir = await tempDir('executor-');
    journal = await new PaymentJournal(join(dir.path, 'payments'), { lockStaleMs: 2_000 }).init();
  });
  afterEach(async () => {
    for (const e of executors.splice(0)) await e.stop();
    await dir.cleanup();
  });

  it('never re-sends a payment whose process died mid-command: it is flagged for the operator', async () => {
    await journal.create(sampleRecord(id(1), { status: 'sending', attempts: 1 }));
    const lock = join(journal.locks, `${id(1)}.lock`);
    await mkdir(lock);
    const past = new Date(Date.now() - 60_000);
    await utimes(lock, past, past);
    const running = executor(await command('exit 0'));
    await waitFor(async () => (await status(1)) === 'interrupted');
    expect(await calls()).toEqual([]);
    expect(running.stats.interrupted).toBe(1);
    expect(await journal.openIds()).toEqual([]);
  });

  it('tells a stalled worker (stale lock, process alive) from a dead one (process gone)', async () => {
    const sleeper = spawn('sleep', ['30']);
    const owner = { host: hostname(), pid: sleeper.pid! };
    await journal.create(sampleRecord(id(1), { status: 'sending', attempts: 1, owner }));
    // The same pid as this process but not sending here: a previous run of a container's pid 1.
    await journal.create(
      sampleRecord(id(2), { status: 'sending', attempts: 1, owner: { ...owner, pid: process.pid } }),
    );
    const past = new Date(Date.now() - 60_000);
    for (const n of [1, 2]) {
      await mkdir(join(journal.locks, `${id(n)}.lock`));
      await utimes(join(journal.locks, `${id(n)}.lock`), past, past);
    }
    const running = executor(await command('exit 0'));
    await waitFor(async () => (await status(2)) === 'interrupted');
    await running.scan();
    expect(await status(1)).toBe('sending');
    const gone = new Promise((resolve) => sleeper.once('exit', resolve));
    sleeper.kill('SIGKILL');
    await gone;
    await waitFor(async () => (await status(1)) === 'interrupted');
    expect(await calls()).toEqual([]);
  });

  it('leaves alone a payment another live worker is sending', async () => {
    await journal.create(sampleRecord(id(1), { status: 'sending', attempts: 1 }));
    const other = await new PaymentJournal(journal.root, { lockStaleMs: 2_000 }).init();
    let release!: () => void;
    const held = other.withLock(id(1), () => new Promise<void>((resolve) => (release = resolve)));
    await waitFor(() => release !== undefined);
    const running = executor(await command('exit 0'));
    await running.scan();
    await running.scan();
    expect(await status(1)).toBe('sending');
    release();
    await held;
  });

  it('flags an attempt that threw after marking the record sending, instead of leaving it sending', async () => {
    await journal.create(sampleRecord(id(1)));
    const running = executor(await command('exit 0'), {
      dunikeyPath: () => {
        throw new RangeError('unusable e-mail');
      },
    });
    running.enqueue(id(1));
    await waitFor(async () => (await status(1)) === 'interrupted');
    expect(await calls()).toEqual([]);
  });

  it('flags a command killed at its time limit instead of retrying it', async () => {
    await journal.create(sampleRecord(id(1)));
    executor(await command('sleep 5'), { timeoutMs: 300 }).enqueue(id(1));
    await waitFor(async () => (await status(1)) === 'interrupted');
    expect(await journal.read(id(1))).toMatchObject({
      attempts: 1,
      last_error: 'killed: time limit reached',
    });
    expect(await calls()).toHaveLength(1);
  });

  it('retries with back-off, then gives up as failed after the last attempt', async () => {
    await journal.create(sampleRecord(id(1)));
    const running = executor(await command('exit 1'), { maxAttempts: 3 });
    running.enqueue(id(1));
    await waitFor(async () => (await status(1)) === 'failed');
    expect(await calls()).toHaveLength(3);
    expect(running.stats).toMatchObject({ attempts: 3, retried: 2, failed: 1, sent: 0 });
    const record = (await journal.read(id(1)))!;
    expect(record.history.map((entry) => entry.status)).toEqual([
      'queued',
      'sending',
      'queued',
      'sending',
      'queued',
      'sending',
      'failed',
    ]);
  });

  it('picks up queued work left by a restart, waiting for its back-off', async () => {
    await journal.create(sampleRecord(id(1)));
    await journal.create(sampleRecord(id(2), { next_attempt_at: Date.now() + 300, attempts: 1 }));
    const running = executor(await command('exit 0'));
    await waitFor(async () => (await status(1)) === 'sent' && (await status(2)) === 'sent');
    expect(running.stats.sent).toBe(2);
    expect(await calls()).toHaveLength(2);
  });

  it('sends nothing without a command: payments stay queued', async () => {
    await journal.create(sampleRecord(id(1)));
    const idle = executor(null);
    idle.enqueue(id(1));
    await idle.scan();
    expect(idle.enabled).toBe(false);
    expect(await status(1)).toBe('queued');
  });
});
