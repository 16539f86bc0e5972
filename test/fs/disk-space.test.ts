import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { diskSpace } from '../../src/fs/disk-space.js';

describe('diskSpace', () => {
  it('reads the free space of the directory’s file system', async () => {
    const stats = await statfs(tmpdir());
    const free = Number(stats.bavail) * Number(stats.bsize);
    const space = await diskSpace(tmpdir(), 1);
    // Other processes write meanwhile: the same order of magnitude, not the same byte.
    expect(space.freeBytes).toBeGreaterThan(free / 2);
    expect(space.low).toBe(false);
  });

  it('is low under the threshold', async () => {
    expect((await diskSpace(tmpdir(), Number.MAX_SAFE_INTEGER)).low).toBe(true);
  });

  it('fails for a directory that does not exist', async () => {
    await expect(diskSpace('/nonexistent/station-data', 1)).rejects.toThrow();
  });
});
