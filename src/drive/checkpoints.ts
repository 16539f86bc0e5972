import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { DriveLocks } from './lock.js';
import { checkpoint, type Owner } from './manifest-log.js';

/**
 * How long a drive's `manifest.json` may trail its log while uploads keep coming: rewriting the checkpoint
 * costs in proportion to the drive, so it is done at most this often per drive, never on an upload's path.
 */
export const CHECKPOINT_DELAY_MS = 1_000;

/** Checkpoints of the drives changed lately (manifest-log.ts), each taken with the drive lock held. */
export class Checkpoints {
  private readonly pending = new Map<string, { owner: Owner; timer: NodeJS.Timeout }>();

  constructor(
    private readonly locks: Pick<DriveLocks, 'run'>,
    private readonly logger: Logger,
    private readonly clock: () => string,
  ) {}

  /** Folds the drive's log within CHECKPOINT_DELAY_MS. */
  soon(manifestPath: string, owner: Owner): void {
    if (this.pending.has(manifestPath)) return;
    const timer = setTimeout(() => void this.take(manifestPath), CHECKPOINT_DELAY_MS);
    timer.unref();
    this.pending.set(manifestPath, { owner: { email: owner.email, hex: owner.hex }, timer });
  }

  /** Every pending checkpoint, at once (on close: the next start then reads no log). */
  async all(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((path) => this.take(path)));
  }

  private async take(manifestPath: string): Promise<void> {
    const pending = this.pending.get(manifestPath);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(manifestPath);
    // A drive removed meanwhile (its user deleted, a test's directory) is not made again by taking its lock.
    if (
      !(await access(dirname(manifestPath)).then(
        () => true,
        () => false,
      ))
    )
      return;
    await this.locks
      .run(dirname(manifestPath), () => checkpoint(manifestPath, pending.owner, this.clock()))
      .catch((error: unknown) =>
        // The log stays and is read as before; the next change schedules another try.
        this.logger.warn({ err: error, drive: dirname(manifestPath) }, 'drive: manifest checkpoint failed'),
      );
  }
}
