import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentJournal } from '../../src/economy/payments/journal.js';
import { id, sampleRecord } from '../economy/payments/records.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { freePort, loopbackEnv, startService, type ServiceProcess } from '../e2e/service-process.js';
import { runCli } from './run-cli.js';

interface Status {
  source: 'service' | 'files';
  service: { running: boolean; url: string; status: string | null };
  relay: { mode: string; reachable: boolean; events: number | null };
  users: number;
  drives: number | null;
  disk: { free_mb: number } | null;
  payments: Record<string, number>;
}

describe('station status', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let service: ServiceProcess | null = null;

  beforeAll(async () => {
    dir = await tempDir('cli-status-');
    env = {
      ...loopbackEnv(dir.path),
      PORT: String(await freePort()),
      RELAY_URL: `ws://127.0.0.1:${await freePort()}`,
    };
    const journal = await new PaymentJournal(join(dir.path, '.zen', 'tmp', 'payments')).init();
    await journal.create(sampleRecord(id(1), { status: 'sent' }));
    await journal.create(sampleRecord(id(2), { status: 'queued' }));
    await journal.create(sampleRecord(id(3), { status: 'failed' }));
    expect((await runCli(['users', 'add', 'status@example.org'], env)).code).toBe(0);
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await dir.cleanup();
  });

  it('without a running service: says so, and reads DATA_ROOT and TMP_DIR alone (exit 3)', async () => {
    const run = await runCli(['status'], env);
    expect(run.code).toBe(3);
    expect(run.stdout.split('\n')[0]).toMatch(/^service +not running .*figures read from DATA_ROOT alone/);
    const json = await runCli(['status', '--json'], env);
    const status = JSON.parse(json.stdout) as Status;
    expect(status).toMatchObject({
      source: 'files',
      service: { running: false },
      relay: { mode: 'embedded', reachable: false, events: 0 },
      users: 1,
      drives: 0,
      payments: { sent: 1, queued: 1, failed: 1 },
    });
    expect(status.disk?.free_mb).toBeGreaterThan(0);
    expect(run.stdout).toContain('payments  1 pending, 1 paid, 1 failed');
  });

  it('with the service running: from its /health over HTTP on PORT, and from DATA_ROOT', async () => {
    service = startService(env);
    const url = await service.listening;
    await waitFor(
      async () => ((await (await fetch(`${url}/health`)).json()) as { status: string }).status === 'ok',
      30_000,
    );
    const run = await runCli(['status'], env);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^service +running at http:\/\/127\.0\.0\.1:\d+ \(ok\): figures from its \/health/,
    );
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as Status;
    expect(status).toMatchObject({
      source: 'service',
      service: { running: true, status: 'ok' },
      relay: { mode: 'embedded', reachable: true, events: expect.any(Number) },
      users: 1,
      payments: { sent: 1, queued: 1, failed: 1 },
    });
  });
});
