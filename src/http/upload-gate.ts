import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { TryLater } from '../errors.js';
import { trustedAddresses } from './trusted.js';

export class TooManyUploadsError extends TryLater {
  constructor(
    code: 'UPLOAD_RATE_LIMITED' | 'UPLOAD_CONCURRENCY_LIMITED',
    detail: string,
    retryAfterSeconds: number,
  ) {
    super(code, detail, retryAfterSeconds);
  }
}

/** The whole station is at its upload capacity: come back shortly (503, not the client's fault). */
export class StationBusyError extends TryLater {
  constructor(maxTotal: number, retryAfterSeconds: number) {
    super(
      'STATION_BUSY',
      `The station is receiving ${maxTotal} uploads already; retry in ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}

export interface UploadGateOptions {
  /** Uploads of one key in flight at once. */
  maxConcurrent: number;
  /** Uploads one key may start per window. */
  maxPerWindow: number;
  windowMs: number;
  clock: Clock;
  /** Who a key is, in the 429 details ("one user", "one address"). */
  subject?: string;
}

/**
 * Limits on uploads, on top of the per-IP rate limit: one key (a user, or a client address) runs at most
 * `maxConcurrent` uploads at once and starts at most `maxPerWindow` per window. Counted per process, like
 * the rate limit.
 */
export class UploadGate {
  private readonly inFlight = new Map<string, number>();
  private readonly started = new Map<string, number[]>();

  constructor(private readonly options: UploadGateOptions) {}

  /** Takes a slot for `key` or throws 429; call the returned function once the upload is over. */
  acquire(key: string): () => void {
    const { clock, windowMs, maxPerWindow, maxConcurrent, subject = 'one user' } = this.options;
    const now = clock.now();
    const recent = (this.started.get(key) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= maxPerWindow) {
      const retry = Math.ceil((recent[0]! + windowMs - now) / 1000);
      throw new TooManyUploadsError(
        'UPLOAD_RATE_LIMITED',
        `At most ${maxPerWindow} uploads per ${windowMs / 1000} s for ${subject}; retry in ${retry} s.`,
        retry,
      );
    }
    const running = this.inFlight.get(key) ?? 0;
    if (running >= maxConcurrent) {
      throw new TooManyUploadsError(
        'UPLOAD_CONCURRENCY_LIMITED',
        `At most ${maxConcurrent} uploads at once for ${subject}; wait for one to finish.`,
        1,
      );
    }
    recent.push(now);
    this.started.set(key, recent);
    this.inFlight.set(key, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    };
  }

  /** Forgets windows that have passed, so keys that stopped uploading do not stay in memory. */
  prune(): void {
    const now = this.options.clock.now();
    for (const [key, times] of this.started) {
      if (times.every((at) => now - at >= this.options.windowMs)) this.started.delete(key);
    }
  }
}

/**
 * The two gates every upload passes: its client address when the file part starts (TRUSTED_IPS exempt, as
 * from the rate limit), then its owner. The address gate keeps one address from cycling through many keys
 * (registration is open), the user gate one key from cycling through many addresses.
 */
export class UploadLimits {
  private readonly trusted: (ip: string) => boolean;
  private inFlight = 0;

  constructor(
    readonly byUser: UploadGate,
    readonly byAddress: UploadGate,
    trustedIps: readonly string[],
    /** Uploads in flight in this process at most: beyond, 503 with Retry-After, so memory and disk stay bounded. */
    private readonly maxTotal = Number.POSITIVE_INFINITY,
  ) {
    this.trusted = trustedAddresses(trustedIps);
  }

  static fromConfig(config: Config, clock: Clock): UploadLimits {
    const gate = (limits: Config['uploads']['perAddress'], subject: string) =>
      new UploadGate({
        maxConcurrent: limits.maxConcurrent,
        maxPerWindow: limits.maxPerMinute,
        windowMs: 60_000,
        clock,
        subject,
      });
    return new UploadLimits(
      gate(config.uploads, 'one user'),
      gate(config.uploads.perAddress, 'one address'),
      config.trustedIps,
      config.uploads.maxTotal,
    );
  }

  /** The first slot of every upload: one of the station's, then one of its address (trusted ones exempt). */
  acquireAddress(ip: string): () => void {
    if (this.inFlight >= this.maxTotal) throw new StationBusyError(this.maxTotal, 5);
    const address = this.trusted(ip) ? () => undefined : this.byAddress.acquire(ip);
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      address();
    };
  }

  acquireUser(pubkey: string): () => void {
    return this.byUser.acquire(pubkey);
  }

  prune(): void {
    this.byUser.prune();
    this.byAddress.prune();
  }
}
