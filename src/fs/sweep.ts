import { lstat, opendir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock.js';
import { TEMP_NAME } from './atomic.js';

/**
 * A temp file untouched this long belongs to no write in progress, in this process or another (PM2 workers,
 * the CLI): a live write keeps its file's mtime moving, and the longest ones (cookie copies) take seconds.
 */
export const TEMP_LEFTOVER_MS = 10 * 60_000;

/** A directory to sweep, and how many levels of sub-directories below it are entered (0: its files only). */
export type SweepRoot = string | { dir: string; maxDepth?: number };

export interface SweepOptions {
  olderThanMs?: number;
  /** Compared with file mtimes, so the wall clock of the file system (default: `Date.now`). */
  clock?: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>;
  /** For roots given as a bare path. */
  maxDepth?: number;
  /** Stops the walk between two entries (the service is closing). */
  signal?: AbortSignal;
}

export interface SweepResult {
  removed: number;
  /** Directories read. */
  scanned: number;
  /** Entries that could not be read or removed (logged). */
  failed: number;
}

/**
 * Where the station's atomic writes land under DATA_ROOT and TMP_DIR: the user folders (cookie files, and
 * `APP/uDRIVE` with its manifest, `.journal/` and `.media/` records, four levels down), the station key,
 * the embedded store's pin files and held files (copies made across file systems), and TMP_DIR (mail
 * outbox, payment journal, scraper markers). Not the relay store nor the embedded blockstore (LMDB and
 * blockstore-fs manage their own files), nor `.drive-staging` (`.part` files, swept by the drive at start).
 */
export function stationTempRoots(dataRoot: string, tmpDir: string): SweepRoot[] {
  return [
    { dir: join(dataRoot, 'nostr'), maxDepth: 5 },
    { dir: join(dataRoot, 'station'), maxDepth: 1 },
    { dir: join(dataRoot, 'ipfs-store', 'pins'), maxDepth: 0 },
    { dir: join(dataRoot, 'ipfs-store', 'files'), maxDepth: 0 },
    { dir: tmpDir, maxDepth: 4 },
  ];
}

const DEFAULT_MAX_DEPTH = 6;
/** The info line names at most this many directories where something was removed. */
const LOGGED_DIRS = 20;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;
/** The entry disappeared (or was replaced by a file) under us: another process got there first. */
const vanished = (error: unknown) => codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR';

/**
 * Removes the temp files of atomic writes (`TEMP_NAME`) that a crash left under `roots`, when older than
 * `olderThanMs`. One directory at a time, yielding to the event loop between directories: meant to run in
 * the background once the service answers. Symbolic links are never followed, not even a root that is one,
 * so the walk never leaves the given trees; only regular files are removed. Never throws: failures are
 * logged (without file names: a cookie temp name carries its domain) and the walk goes on.
 */
export async function sweepTempFiles(
  roots: readonly SweepRoot[],
  options: SweepOptions,
): Promise<SweepResult> {
  const { logger, signal } = options;
  const olderThanMs = options.olderThanMs ?? TEMP_LEFTOVER_MS;
  const cutoff = (options.clock ?? systemClock).now() - olderThanMs;
  const result: SweepResult = { removed: 0, scanned: 0, failed: 0 };
  const touched = new Set<string>();
  const fail = (dir: string, error: unknown, what: string) => {
    result.failed += 1;
    logger.warn({ dir, code: codeOf(error) }, `temp sweep: ${what} failed`);
    return false;
  };

  for (const root of roots) {
    const { dir: rootDir, maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH } =
      typeof root === 'string' ? { dir: root } : root;
    const rootInfo = await lstat(rootDir).catch(() => null);
    if (!rootInfo?.isDirectory()) continue;
    const pending: Array<{ dir: string; depth: number }> = [{ dir: rootDir, depth: 0 }];
    while (pending.length > 0 && !signal?.aborted) {
      const { dir, depth } = pending.pop()!;
      await nextTurn();
      try {
        result.scanned += 1;
        // `opendir` streams the entries: a large folder is never listed whole in memory.
        for await (const entry of await opendir(dir)) {
          if (signal?.aborted) break;
          const path = join(dir, entry.name);
          // Dirent types come from lstat semantics: a symbolic link is neither a directory nor a file here.
          if (entry.isDirectory()) {
            if (depth < maxDepth) pending.push({ dir: path, depth: depth + 1 });
          } else if (entry.isFile() && TEMP_NAME.test(entry.name)) {
            if (await removeIfOld(path, cutoff).catch((error: unknown) => fail(dir, error, 'removal'))) {
              result.removed += 1;
              touched.add(dir);
            }
          }
        }
      } catch (error) {
        if (!vanished(error)) fail(dir, error, 'reading a directory');
      }
    }
  }
  const dirs = [...touched];
  // Nothing found is the usual case: worth a line only when someone asks for details.
  const log = result.removed > 0 || result.failed > 0 ? logger.info.bind(logger) : logger.debug.bind(logger);
  log(
    { ...result, dirs: dirs.slice(0, LOGGED_DIRS), moreDirs: Math.max(0, dirs.length - LOGGED_DIRS) },
    'temp sweep: leftover temp files removed',
  );
  return result;
}

/** True when the file was old and is now gone; false when it is recent, or went away meanwhile. */
async function removeIfOld(path: string, cutoff: number): Promise<boolean> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if (vanished(error)) return false;
    throw error;
  }
  if (!info.isFile() || info.mtimeMs > cutoff) return false;
  try {
    await rm(path);
    return true;
  } catch (error) {
    if (vanished(error)) return false;
    throw error;
  }
}
