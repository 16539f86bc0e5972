import { readFile } from 'node:fs/promises';

/**
 * This process's memory, in bytes. The resident set (`rss`) holds two kinds of pages: anonymous ones (the V8
 * heap, malloc, Buffers), which only the process can give back, and pages of files it maps (the LMDB stores,
 * the node binary), which the kernel drops whenever it needs the room and reads again on the next access.
 * An LMDB store read for hours leaves gigabytes of the latter in `rss`: they say nothing about a leak.
 */
export interface MemoryReading {
  heapUsed: number;
  heapTotal: number;
  /** Memory of C++ objects bound to JS ones (Buffers' contents included). */
  external: number;
  /** ArrayBuffers' and Buffers' contents (already counted in `external`). */
  arrayBuffers: number;
  rss: number;
  /** Resident anonymous pages (`RssAnon`); null where `/proc/self/status` does not say (not Linux). */
  anonymous: number | null;
  /** Resident pages of mapped files (`RssFile`). */
  fileBacked: number | null;
  /** Resident shared memory (`RssShmem`): mapped files of a tmpfs (a store under /dev/shm), shared mappings. */
  shmem: number | null;
  /** Anonymous pages swapped out (`VmSwap`): still the process's own, though not resident. */
  swapped: number | null;
}

export type ProcMemory = Pick<MemoryReading, 'anonymous' | 'fileBacked' | 'shmem' | 'swapped'>;

const UNKNOWN: ProcMemory = { anonymous: null, fileBacked: null, shmem: null, swapped: null };

/** `RssAnon:   123456 kB` → bytes; null when the line is missing (kernels before 4.5 have no RssAnon). */
function kilobytes(status: string, field: string): number | null {
  const match = new RegExp(`^${field}:\\s*(\\d+) kB$`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** The memory lines of a `/proc/<pid>/status` text. */
export function parseProcStatus(status: string): ProcMemory {
  return {
    anonymous: kilobytes(status, 'RssAnon'),
    fileBacked: kilobytes(status, 'RssFile'),
    shmem: kilobytes(status, 'RssShmem'),
    swapped: kilobytes(status, 'VmSwap'),
  };
}

/**
 * Reads this process's memory: V8's figures and the resident set from `process.memoryUsage()`, its split from
 * `/proc/self/status` (one small read; null fields where it cannot be read). Rejects only when
 * `process.memoryUsage()` throws (it opens `/proc/self/stat`: no file descriptor left).
 */
export async function readMemory(statusFile = '/proc/self/status'): Promise<MemoryReading> {
  const usage = process.memoryUsage();
  const proc =
    process.platform === 'linux'
      ? await readFile(statusFile, 'utf8').then(parseProcStatus, () => UNKNOWN)
      : UNKNOWN;
  return {
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    rss: usage.rss,
    ...proc,
  };
}

/**
 * The memory a leak would grow, which the watchdog holds against MEMORY_LIMIT_MB: anonymous pages, resident
 * or swapped out (the V8 heap is among them), never pages of mapped files. Without `/proc`, the V8 heap in use
 * plus the memory of native objects (`external`, which holds `arrayBuffers`: adding both would count Buffers
 * twice).
 */
export function unmappedBytes(reading: MemoryReading): number {
  if (reading.anonymous !== null) return reading.anonymous + (reading.swapped ?? 0);
  return reading.heapUsed + reading.external;
}

/** Resident pages of mapped files, a tmpfs's included (`/health`'s `file_backed_mb`); null without `/proc`. */
export function mappedBytes(reading: MemoryReading): number | null {
  return reading.fileBacked === null ? null : reading.fileBacked + (reading.shmem ?? 0);
}

/** Bytes → whole MiB, as `/health` and the log lines show them. */
export function megabytes(bytes: number): number;
export function megabytes(bytes: number | null): number | null;
export function megabytes(bytes: number | null): number | null {
  return bytes === null ? null : Math.floor(bytes / 1024 / 1024);
}
