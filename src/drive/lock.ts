import { join } from 'node:path';
import type { Logger } from 'pino';
import { FileLocks, type LockLease, type Tenure } from '../fs/file-lock.js';
import { TryLater } from '../errors.js';

export type { Tenure };

/** A lock older than this is taken over: its holder died (the holder refreshes it every STALE_MS / 4). */
const STALE_MS = 20_000;

/** The longest wait between two tries for a drive another process holds. */
const RETRY_MAX_MS = 100;

/**
 * The station's lease on the drives it writes (see fs/file-lock.ts): a drive in use stays locked between
 * its uploads, and is given back after a second without any, or after two seconds to a process waiting.
 */
export const STATION_LEASE: LockLease = { idleMs: 1_000, maxMs: 2_000, yieldMs: 2 * RETRY_MAX_MS };

/**
 * One writer per drive at a time, in this process and across processes (PM2 cluster workers, the CLI):
 * `APP/uDRIVE/.drive.lock` (see fs/file-lock.ts). A drive still locked by another process after the
 * retries (about a minute, past STALE_MS) is 503 `DRIVE_BUSY`.
 */
export class DriveLocks {
  private readonly locks: FileLocks;

  constructor(logger?: Logger, lease?: LockLease) {
    this.locks = new FileLocks({
      staleMs: STALE_MS,
      updateMs: STALE_MS / 4,
      retries: { retries: 700, minTimeout: 10, maxTimeout: RETRY_MAX_MS },
      onCompromised: (error) => logger?.error({ err: error }, 'drive lock compromised'),
      // A drive's first change makes its folder.
      makeParent: true,
      markWaiting: true,
      namesHolder: true,
      ...(lease ? { lease } : {}),
    });
  }

  /** `critical` is told its tenure: the same as an earlier section's, no other process wrote meanwhile. */
  async run<T>(driveDir: string, critical: (tenure: Tenure) => Promise<T>): Promise<T> {
    return this.locks.run(join(driveDir, '.drive.lock'), critical).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new TryLater('DRIVE_BUSY', 'The drive is busy with another change; try again shortly.');
      throw error;
    });
  }

  /** Gives back the drives kept under the lease. */
  close(): Promise<void> {
    return this.locks.close();
  }
}
