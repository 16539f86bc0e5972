import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { TryLater, type Localized } from '../errors.js';
import { trustedAddresses } from './trusted.js';

const ONE_USER: Localized = { en: 'one user', fr: 'un utilisateur' };

export class TooManyUploadsError extends TryLater {
  constructor(
    code: 'UPLOAD_RATE_LIMITED' | 'UPLOAD_CONCURRENCY_LIMITED',
    detail: Localized,
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
      {
        en: `The station is receiving ${maxTotal} uploads already; retry in ${retryAfterSeconds} s.`,
        fr: `La station reçoit déjà ${maxTotal} envois ; réessayez dans ${retryAfterSeconds} s.`,
      },
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
  subject?: Localized;
}

/**
 * The start times of one key's uploads still in the window, oldest first: the expired ones leave from the
 * front, so a check costs what fell out of the window, not the whole window. (Filtering every time made each
 * upload cost as much as the window held: 6,000 entries for one user at 100 uploads/s under a raised
 * UPLOAD_MAX_PER_MINUTE, a new array each time.) Start times come from one clock in order; a clock stepped
 * back only keeps earlier entries a little longer, which limits more, never less.
 */
class StartWindow {
  private times: number[] = [];
  private head = 0;

  /** How many starts are within `windowMs` of `now`, once the older ones are dropped. */
  count(now: number, windowMs: number): number {
    while (this.head < this.times.length && now - this.times[this.head]! >= windowMs) this.head += 1;
    // Dropped entries are let go in one copy once they are the larger part.
    if (this.head > 64 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  get oldest(): number {
    return this.times[this.head]!;
  }

  add(at: number): void {
    this.times.push(at);
  }
}

/**
 * Limits on uploads, on top of the per-IP rate limit: one key (a user, or a client address) runs at most
 * `maxConcurrent` uploads at once and starts at most `maxPerWindow` per window. Counted per process, like
 * the rate limit.
 */
export class UploadGate {
  private readonly inFlight = new Map<string, number>();
  private readonly started = new Map<string, StartWindow>();

  constructor(private readonly options: UploadGateOptions) {}

  /** Takes a slot for `key` or throws 429; call the returned function once the upload is over. */
  acquire(key: string): () => void {
    const { clock, windowMs, maxPerWindow, maxConcurrent, subject = ONE_USER } = this.options;
    const now = clock.now();
    let recent = this.started.get(key);
    if (!recent) this.started.set(key, (recent = new StartWindow()));
    if (recent.count(now, windowMs) >= maxPerWindow) {
      const retry = Math.ceil((recent.oldest + windowMs - now) / 1000);
      throw new TooManyUploadsError(
        'UPLOAD_RATE_LIMITED',
        {
          en: `At most ${maxPerWindow} uploads per ${windowMs / 1000} s for ${subject.en}; retry in ${retry} s.`,
          fr: `Au plus ${maxPerWindow} envois par ${windowMs / 1000} s pour ${subject.fr} ; réessayez dans ${retry} s.`,
        },
        retry,
      );
    }
    const running = this.inFlight.get(key) ?? 0;
    if (running >= maxConcurrent) {
      throw new TooManyUploadsError(
        'UPLOAD_CONCURRENCY_LIMITED',
        {
          en: `At most ${maxConcurrent} uploads at once for ${subject.en}; wait for one to finish.`,
          fr: `Au plus ${maxConcurrent} envois à la fois pour ${subject.fr} ; attendez qu’un envoi se termine.`,
        },
        1,
      );
    }
    recent.add(now);
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
    for (const [key, window] of this.started) {
      if (window.count(now, this.options.windowMs) === 0) this.started.delete(key);
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
    const gate = (limits: Config['uploads']['perAddress'], subject: Localized) =>
      new UploadGate({
        maxConcurrent: limits.maxConcurrent,
        maxPerWindow: limits.maxPerMinute,
        windowMs: 60_000,
        clock,
        subject,
      });
    return new UploadLimits(
      gate(config.uploads, ONE_USER),
      gate(config.uploads.perAddress, { en: 'one address', fr: 'une adresse' }),
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
