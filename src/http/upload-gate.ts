import type { Clock } from '../clock.js';
import { AppError } from './errors.js';

export class TooManyUploadsError extends AppError {
  constructor(code: string, detail: string, retryAfterSeconds: number) {
    super(429, code, detail, { 'retry-after': String(retryAfterSeconds) });
  }
}

export interface UploadGateOptions {
  /** Uploads of one user in flight at once. */
  maxConcurrent: number;
  /** Uploads one user may start per window. */
  maxPerWindow: number;
  windowMs: number;
  clock: Clock;
}

/**
 * Per-user limits on uploads, on top of the per-IP rate limit: a user (whatever addresses they come from)
 * runs at most `maxConcurrent` uploads at once and starts at most `maxPerWindow` per window. Counted per
 * process, like the rate limit.
 */
export class UploadGate {
  private readonly inFlight = new Map<string, number>();
  private readonly started = new Map<string, number[]>();

  constructor(private readonly options: UploadGateOptions) {}

  /** Takes a slot for `pubkey` or throws 429; call the returned function once the upload is over. */
  acquire(pubkey: string): () => void {
    const now = this.options.clock.now();
    const recent = (this.started.get(pubkey) ?? []).filter((at) => now - at < this.options.windowMs);
    if (recent.length >= this.options.maxPerWindow) {
      const retry = Math.ceil((recent[0]! + this.options.windowMs - now) / 1000);
      throw new TooManyUploadsError(
        'UPLOAD_RATE_LIMITED',
        `At most ${this.options.maxPerWindow} uploads per ${this.options.windowMs / 1000} s for one user; retry in ${retry} s.`,
        retry,
      );
    }
    const running = this.inFlight.get(pubkey) ?? 0;
    if (running >= this.options.maxConcurrent) {
      throw new TooManyUploadsError(
        'UPLOAD_CONCURRENCY_LIMITED',
        `At most ${this.options.maxConcurrent} uploads at once for one user; wait for one to finish.`,
        1,
      );
    }
    recent.push(now);
    this.started.set(pubkey, recent);
    this.inFlight.set(pubkey, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(pubkey) ?? 1) - 1;
      if (left > 0) this.inFlight.set(pubkey, left);
      else this.inFlight.delete(pubkey);
    };
  }

  /** Forgets windows that have passed, so keys of users who stopped uploading do not stay in memory. */
  prune(): void {
    const now = this.options.clock.now();
    for (const [key, times] of this.started) {
      if (times.every((at) => now - at >= this.options.windowMs)) this.started.delete(key);
    }
  }
}
