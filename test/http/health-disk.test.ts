import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface HealthBody {
  status: string;
  disk: { free_mb: number; low: boolean };
}

describe('/health and free disk space', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('reports the free space of the data directory', async () => {
    t = await buildTestApp({ env: { DISK_MIN_FREE_MB: '1' } });
    const body = (await t.app.inject({ url: '/health' })).json<HealthBody>();
    expect(body.disk.free_mb).toBeGreaterThan(1);
    expect(body.disk.low).toBe(false);
  });

  it('says degraded under DISK_MIN_FREE_MB, before writes start failing', async () => {
    // More than any disk here holds: the threshold is always crossed.
    t = await buildTestApp({ env: { DISK_MIN_FREE_MB: '100000000' } });
    const answer = await t.app.inject({ url: '/health' });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<HealthBody>();
    expect(body.disk.low).toBe(true);
    expect(body.status).toBe('degraded');
  });

  it('answers with disk null, never 500, when the data directory cannot be measured', async () => {
    t = await buildTestApp();
    await rm(t.config.dataRoot, { recursive: true, force: true });
    const answer = await t.app.inject({ url: '/health' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ disk: unknown }>().disk).toBeNull();
  });
});
