import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { DriveLocks } from './lock.js';
import { checkpoint, releaseDrive, type Owner } from './manifest-log.js';

/**
 * A drive's log is folded into its `manifest.json` once no change came for this long: rewriting the
 * checkpoint costs in proportion to the drive (and its flush), so it is never on an upload's path.
 */
export const CHECKPOINT_DELAY_MS = 1_000;

/**
 * While changes keep coming, the fold still happens this long after the first one it waits for: a drive
 * in steady use pays one rewrite per this period, not one per second, and its log stays short.
 */
export const CHECKPOINT_MAX_DELAY_MS = 10_000;

/** Checkpoints of the drives changed lately (manifest-log.ts), each taken with the drive lock held. */
export class Checkpoints {
  private readonly pending = new Map<string, { owner: Owner; timer: NodeJS.Timeout; since: number }>();

  constructor(
    private readonly locks: Pick<DriveLocks, 'run'>,
    private readonly logger: Logger,
    private readonly clock: () => string,
  ) {}

  /** Folds the drive's log once it has been quiet for CHECKPOINT_DELAY_MS (see CHECKPOINT_MAX_DELAY_MS). */
  soon(manifestPath: string, owner: Owner): void {
    const pending = this.pending.get(manifestPath);
    const now = performance.now();
    const since = pending?.since ?? now;
    const delay = Math.max(0, Math.min(CHECKPOINT_DELAY_MS, since + CHECKPOINT_MAX_DELAY_MS - now));
    if (pending) {
      // Re-armed, not replaced, until the last stretch: a drive in use costs no timer per change.
      if (delay === CHECKPOINT_DELAY_MS) pending.timer.refresh();
      else {
        clearTimeout(pending.timer);
        pending.timer = this.timer(manifestPath, delay);
      }
      return;
    }
    const timer = this.timer(manifestPath, delay);
    this.pending.set(manifestPath, { owner: { email: owner.email, hex: owner.hex }, timer, since });
  }

  private timer(manifestPath: string, delay: number): NodeJS.Timeout {
    const timer = setTimeout(() => void this.take(manifestPath), delay);
    timer.unref();
    return timer;
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
    // A drive removed meanwhile (its user deleted, a test's directory) is not made again by taking its lock,
    // and the log this process kept open for it is let go.
    if (
      !(await access(dirname(manifestPath)).then(
        () => true,
        () => false,
      ))
    )
      return releaseDrive(manifestPath);
    await this.locks
      .run(dirname(manifestPath), () => checkpoint(manifestPath, pending.owner, this.clock()))
      .catch((error: unknown) =>
        // The log stays and is read as before; the next change schedules another try.
        this.logger.warn({ err: error, drive: dirname(manifestPath) }, 'drive: manifest checkpoint failed'),
      );
  }
}
