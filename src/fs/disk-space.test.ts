import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DiskSpaceMonitor } from './disk-space.js';

describe('DiskSpaceMonitor', () => {
  it('reads the free space of the data directory', async () => {
    const stats = await statfs(tmpdir());
    const free = Number(stats.bavail) * Number(stats.bsize);
    const space = await new DiskSpaceMonitor(tmpdir(), 1).read();
    // Other processes write meanwhile: the same order of magnitude, not the same byte.
    expect(space.freeBytes).toBeGreaterThan(free / 2);
    expect(space.low).toBe(false);
  });

  it('is low under the threshold', async () => {
    const space = await new DiskSpaceMonitor(tmpdir(), Number.MAX_SAFE_INTEGER).read();
    expect(space.low).toBe(true);
  });

  it('answers repeated probes from one reading until it is too old', async () => {
    let now = 0;
    const monitor = new DiskSpaceMonitor(tmpdir(), 1, () => now, 1_000);
    const first = monitor.read();
    now = 999;
    expect(monitor.read()).toBe(first);
    now = 1_000;
    expect(monitor.read()).not.toBe(first);
  });

  it('asks again after a failed reading', async () => {
    const monitor = new DiskSpaceMonitor('/nonexistent/station-data', 1, () => 0);
    await expect(monitor.read()).rejects.toThrow();
    await expect(monitor.read()).rejects.toThrow();
  });
});
