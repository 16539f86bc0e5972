import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from 'pino';
import { AppError } from '../http/errors.js';

/** A lock older than this is taken over: its holder died (the holder refreshes it every STALE_MS / 4). */
const STALE_MS = 20_000;

/**
 * One writer per drive at a time. Inside a process, writers of a drive queue on a promise chain (no polling);
 * across processes (PM2 cluster workers, the CLI) they also hold `APP/uDRIVE/.drive.lock`, a proper-lockfile
 * lock that survives nothing: a crashed holder's lock goes stale and is taken over.
 */
export class DriveLocks {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly logger?: Logger) {}

  async run<T>(driveDir: string, critical: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(driveDir) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(driveDir, tail);
    await previous;
    try {
      const unlock = await this.acquire(driveDir);
      try {
        return await critical();
      } finally {
        await unlock().catch((error: unknown) =>
          this.logger?.warn({ err: error, driveDir }, 'drive unlock failed'),
        );
      }
    } finally {
      release();
      if (this.tails.get(driveDir) === tail) this.tails.delete(driveDir);
    }
  }

  private async acquire(driveDir: string): Promise<() => Promise<void>> {
    await mkdir(driveDir, { recursive: true });
    try {
      return await lockfile.lock(driveDir, {
        realpath: false,
        lockfilePath: join(driveDir, '.drive.lock'),
        stale: STALE_MS,
        update: STALE_MS / 4,
        retries: { retries: 300, factor: 1.2, minTimeout: 10, maxTimeout: 200, randomize: true },
        onCompromised: (error) => this.logger?.error({ err: error, driveDir }, 'drive lock compromised'),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new AppError(503, 'DRIVE_BUSY', 'The drive is busy with another change; try again shortly.');
      throw error;
    }
  }
}
