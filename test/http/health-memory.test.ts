import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface Memory {
  heap_used_mb: number;
  heap_total_mb: number;
  rss_mb: number;
  anonymous_mb: number | null;
  file_backed_mb: number | null;
}

describe('/health and the memory of the process', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('reports the V8 heap and the resident set, split into anonymous and file-backed parts', async () => {
    t = await buildTestApp();
    const answer = await t.app.inject({ url: '/health' });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{ memory: Memory; users: number; disk: unknown }>();
    const memory = body.memory;
    expect(Object.keys(memory).sort()).toEqual([
      'anonymous_mb',
      'file_backed_mb',
      'heap_total_mb',
      'heap_used_mb',
      'rss_mb',
    ]);
    for (const value of Object.values(memory)) if (value !== null) expect(Number.isInteger(value)).toBe(true);
    expect(memory.heap_used_mb).toBeGreaterThan(0);
    expect(memory.heap_total_mb).toBeGreaterThanOrEqual(memory.heap_used_mb);
    expect(memory.rss_mb).toBeGreaterThan(memory.heap_used_mb);
    // The fields that were there before are all still there.
    expect(body).toMatchObject({ users: 0, disk: expect.anything() });
    if (process.platform !== 'linux') return;
    expect(memory.anonymous_mb).toBeGreaterThan(0);
    expect(memory.file_backed_mb).toBeGreaterThan(0);
    // Read a moment apart: equal within a few MB.
    expect(Math.abs(memory.rss_mb - memory.anonymous_mb! - memory.file_backed_mb!)).toBeLessThan(64);
  });

  it('reads the memory at most once a second, like the disk', async () => {
    let now = 1_000_000;
    t = await buildTestApp({ clock: { now: () => now } });
    const memory = async () => (await t!.app.inject({ url: '/health' })).json<{ memory: Memory }>().memory;
    const first = await memory();
    // Megabytes of garbage between two answers of the same second: the second one is the same reading.
    const garbage = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
    expect(await memory()).toEqual(first);
    expect(garbage).toHaveLength(200_000);
    now += 1_000;
    expect((await memory()).heap_used_mb).toBeGreaterThan(0);
  });
});
