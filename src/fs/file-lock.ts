import fs from 'node:fs';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

export interface FileLockOptions {
  /** A lock not refreshed for this long is taken over: its holder died. */
  staleMs: number;
  /** How often the holder refreshes its lock (default: proper-lockfile's, staleMs / 2). */
  updateMs?: number;
  /** How long a process keeps trying for a lock another process holds: tries, and the wait between them. */
  retries: { retries: number; minTimeout: number; maxTimeout: number };
  /** The lock was lost while held (its directory removed or taken over): the section may not be alone. */
  onCompromised?: (error: Error) => void;
  /**
   * Makes the lock's folder when it does not exist, at the moment the lock is taken: callers need not ask
   * for it (a system call) before every section.
   */
  makeParent?: boolean;
}

type MkdirCallback = (error: NodeJS.ErrnoException | null) => void;

/** Node's fs, with a mkdir that makes the missing parent of the lock directory first. */
const fsMakingParents = {
  ...fs,
  mkdir(path: string, callback: MkdirCallback) {
    fs.mkdir(path, (error) => {
      if (error?.code !== 'ENOENT') return callback(error);
      fs.mkdir(dirname(path), { recursive: true }, (parentError) =>
        parentError ? callback(parentError) : fs.mkdir(path, callback),
      );
    });
  },
};

/**
 * Exclusive sections keyed by a lock path, for every process that shares the files (PM2 workers, the CLI).
 * Inside a process, callers of one key queue on a promise chain: no polling, and proper-lockfile refuses a
 * lock its own process already holds. Across processes, the section holds a proper-lockfile lock (a
 * directory at the lock path, refreshed while held, taken over once stale), so a crashed holder never
 * blocks the others for long. A lock another process holds is waited for with back-off; past the retries,
 * the lock error (`code: 'ELOCKED'`) is thrown.
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly options: FileLockOptions) {}

  run<T>(lockPath: string, critical: () => Promise<T>): Promise<T> {
    return this.queued(lockPath, async () => {
      const { staleMs, updateMs, retries, onCompromised, makeParent } = this.options;
      const lock = (attempts: lockfile.LockOptions['retries']) =>
        lockfile.lock(lockPath, {
          ...(makeParent ? { fs: fsMakingParents } : {}),
          realpath: false,
          lockfilePath: lockPath,
          stale: staleMs,
          ...(updateMs === undefined ? {} : { update: updateMs }),
          retries: attempts,
          ...(onCompromised ? { onCompromised } : {}),
        });
      // A free lock is taken at once; only one another process holds is waited for. The retrying attempt
      // draws its whole schedule of waits up front (`retries` of them), which a free lock does not need.
      const release = await lock(0).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ELOCKED') throw error;
        return lock({ ...retries, factor: 1.2, randomize: true });
      });
      try {
        return await critical();
      } finally {
        // A lock already gone (compromised, or removed by hand) has nothing left to release.
        await release().catch(() => undefined);
      }
    });
  }

  private queued<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
