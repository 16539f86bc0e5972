import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  mappedBytes,
  megabytes,
  parseProcStatus,
  readMemory,
  unmappedBytes,
  type MemoryReading,
} from '../../src/process/memory.js';
import { tempDir } from '../helpers/temp.js';

const MB = 1024 * 1024;

/** The memory lines of a real /proc/<pid>/status (Linux 6.x), with the lines around them. */
const STATUS = [
  'Name:\tnode',
  'VmPeak:\t 2625444 kB',
  'VmSize:\t 2560964 kB',
  'VmHWM:\t 2457600 kB',
  'VmRSS:\t 2457600 kB',
  'RssAnon:\t  403456 kB',
  'RssFile:\t 2054144 kB',
  'RssShmem:\t       0 kB',
  'VmData:\t  612344 kB',
  'VmSwap:\t    1024 kB',
  'Threads:\t11',
].join('\n');

describe('parseProcStatus', () => {
  it('reads the anonymous, file-backed, shared and swapped parts in bytes', () => {
    expect(parseProcStatus(STATUS)).toEqual({
      anonymous: 403_456 * 1024,
      fileBacked: 2_054_144 * 1024,
      shmem: 0,
      swapped: 1024 * 1024,
    });
  });

  it('gives null for a line the kernel does not write (before Linux 4.5: no RssAnon)', () => {
    expect(parseProcStatus('Name:\tnode\nVmRSS:\t 1024 kB\n')).toEqual({
      anonymous: null,
      fileBacked: null,
      shmem: null,
      swapped: null,
    });
  });
});

describe('readMemory', () => {
  it.runIf(process.platform === 'linux')('reads this process: V8 figures and /proc/self/status', async () => {
    const reading = await readMemory();
    expect(reading.heapUsed).toBeGreaterThan(0);
    expect(reading.heapTotal).toBeGreaterThanOrEqual(reading.heapUsed);
    expect(reading.anonymous).toBeGreaterThan(reading.heapUsed / 2);
    expect(reading.fileBacked).toBeGreaterThan(0);
    // Read a moment apart, so only roughly equal: the resident set is the anonymous and file-backed parts.
    const parts = reading.anonymous! + reading.fileBacked! + reading.shmem!;
    expect(Math.abs(reading.rss - parts)).toBeLessThan(64 * MB);
  });

  it('gives null for the /proc parts when the status file cannot be read, and still answers', async () => {
    const reading = await readMemory('/nonexistent/status');
    expect(reading).toMatchObject({ anonymous: null, fileBacked: null, shmem: null, swapped: null });
    expect(reading.rss).toBeGreaterThan(0);
  });

  it.runIf(process.platform === 'linux')('parses the status file it is given', async () => {
    const dir = await tempDir();
    try {
      await writeFile(join(dir.path, 'status'), STATUS);
      const reading = await readMemory(join(dir.path, 'status'));
      expect(reading.fileBacked).toBe(2_054_144 * 1024);
    } finally {
      await dir.cleanup();
    }
  });
});

describe('unmappedBytes', () => {
  const reading: MemoryReading = {
    heapUsed: 100 * MB,
    heapTotal: 120 * MB,
    external: 30 * MB,
    arrayBuffers: 20 * MB,
    rss: 2_400 * MB,
    anonymous: 400 * MB,
    fileBacked: 2_000 * MB,
    shmem: 0,
    swapped: 8 * MB,
  };

  it('is the anonymous memory, resident or swapped out, never the mapped files', () => {
    expect(unmappedBytes(reading)).toBe(408 * MB);
  });

  it('without /proc, is the heap in use plus native memory (external already holds the ArrayBuffers)', () => {
    const bare = { ...reading, anonymous: null, fileBacked: null, shmem: null, swapped: null };
    expect(unmappedBytes(bare)).toBe(130 * MB);
  });

  it('counts as mapped the pages of files, those of a tmpfs (shared memory) included', () => {
    expect(mappedBytes({ ...reading, shmem: 16 * MB })).toBe(2_016 * MB);
    expect(mappedBytes({ ...reading, fileBacked: null, shmem: null })).toBeNull();
  });

  it('shows whole MiB', () => {
    expect(megabytes(408 * MB + MB - 1)).toBe(408);
    expect(megabytes(null)).toBeNull();
  });
});
