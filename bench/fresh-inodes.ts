/**
 * Benchmarks that create files measure file creation, and on this machine's file system that cost depends
 * on what was deleted in the last minutes. Its ext4 has no journal; without one, the kernel does not give a
 * new file an inode freed less than 60 seconds ago (360 while the inode's table block is not yet written
 * back), and each creation scans past every such inode of its block group first (the kernel's
 * `recently_deleted` check). A run started right after another one removed its thousands of files measured
 * that scan: up to a millisecond of kernel time per upload (docs/benchmarks.md, "Running them").
 *
 * So a run's files are removed through `removeBenchFiles`, which flushes the deletion (`sync`: the 60-second
 * case) and notes when, and a file-creating run first waits, with `awaitFreshInodes`, until the last removal
 * any earlier run noted is older than that window: six minutes, since a run's own new files dirty the blocks
 * of the inodes freed before it (waiting one minute, as until 2026-11-26, left 50 users' uploads at 3.5 ms of
 * CPU each instead of 2.3). Deletions by other programs (the test suite) are not seen. A journalled ext4, as
 * most stations have, makes no such check at all.
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

/** The kernel's window for a freed inode whose table block was written back, plus a margin. */
export const RECENTLY_DELETED_MS = 61_000;

/**
 * Its window while that block is dirty again, plus a margin: new files whose inodes share a block with freed
 * ones make it dirty, so after a run that removed thousands of files the next one can still meet them this
 * long (docs/benchmarks.md, "Running them"). What `awaitFreshInodes` waits out.
 */
export const RECENTLY_DELETED_DIRTY_MS = 361_000;

const STAMP = join(tmpdir(), 'uplanet-station-bench.removed-at');

/** Writes every dirty buffer of the machine to disk (`sync`). */
export const sync = () => promisify(execFile)('sync');

/** Removes a benchmark's files, flushes the removal and notes its time for the next run. */
export async function removeBenchFiles(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 10 });
  await sync();
  await writeFile(STAMP, String(Date.now()));
}

/**
 * How long a run starting at `now` still has to wait after a removal noted at `removedAt` (ms since the
 * epoch, null when none was noted or it cannot be read).
 */
export function waitNeeded(removedAt: number | null, now: number, windowMs = RECENTLY_DELETED_MS): number {
  if (removedAt === null || !Number.isFinite(removedAt) || removedAt > now) return 0;
  return Math.max(0, removedAt + windowMs - now);
}

/** Waits, saying so on stderr, until the inodes the last noted removal freed are no longer recent. */
export async function awaitFreshInodes(): Promise<void> {
  const mode = process.env.BENCH_FRESH_INODES;
  if (mode === '0') return;
  // `short`: the one-minute window alone, for a quick look (the figures it gives are not comparable).
  const windowMs = mode === 'short' ? RECENTLY_DELETED_MS : RECENTLY_DELETED_DIRTY_MS;
  const noted = await readFile(STAMP, 'utf8').then(Number, () => null);
  const wait = waitNeeded(noted, Date.now(), windowMs);
  if (wait === 0) return;
  process.stderr.write(
    `bench: waiting ${Math.ceil(wait / 1000)} s: an earlier run removed its files less than ` +
      `${Math.round(windowMs / 60_000)} minute(s) ago (bench/fresh-inodes.ts; BENCH_FRESH_INODES=0 does not ` +
      'wait, =short waits one minute)\n',
  );
  await sync();
  await sleep(wait);
}
