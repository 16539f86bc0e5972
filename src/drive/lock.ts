import { join } from 'node:path';
import type { Logger } from 'pino';
import { FileLocks } from '../fs/file-lock.js';
import { TryLater } from '../errors.js';

/** A lock older than this is taken over: its holder died (the holder refreshes it every STALE_MS / 4). */
const STALE_MS = 20_000;

/**
 * One writer per drive at a time, in this process and across processes (PM2 cluster workers, the CLI):
 * `APP/uDRIVE/.drive.lock` (see fs/file-lock.ts). A drive still locked by another process after the
 * retries is 503 `DRIVE_BUSY`.
 */
export class DriveLocks {
  private readonly locks: FileLocks;

  constructor(logger?: Logger) {
    this.locks = new FileLocks({
      staleMs: STALE_MS,
      updateMs: STALE_MS / 4,
      retries: { retries: 300, minTimeout: 10, maxTimeout: 200 },
      onCompromised: (error) => logger?.error({ err: error }, 'drive lock compromised'),
      // A drive's first change makes its folder.
      makeParent: true,
    });
  }

  async run<T>(driveDir: string, critical: () => Promise<T>): Promise<T> {
    return this.locks.run(join(driveDir, '.drive.lock'), critical).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new TryLater('DRIVE_BUSY', 'The drive is busy with another change; try again shortly.');
      throw error;
    });
  }
}
