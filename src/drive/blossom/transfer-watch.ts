import { MirrorTimeoutError, MirrorTooSlowError } from './errors.js';

/** Time limits of one fetch beyond the per-chunk silence (config: MIRROR_DEADLINE, MIRROR_MIN_BYTES_PER_S…). */
export interface PaceLimits {
  /** The whole fetch, headers and body, is over within this many ms. */
  deadlineMs?: number;
  /** The body brings at least this many bytes a second over every window (0 or absent: no floor). */
  minBytesPerSecond?: number;
  /** The window the rate is judged over, first once a whole window has passed since the headers. */
  rateWindowMs?: number;
}

/** The window slides by a fifth of itself: a dripping origin is judged every window / 5 once one has passed. */
const STEPS = 5;

/**
 * Watches one fetch: its whole-fetch deadline, and the rate of its body. A silence limit alone lets an origin
 * that sends one byte every few seconds hold the fetch (and its uploader's slots) for ever; a deadline alone
 * lets it hold them until the deadline. Either limit aborts `signal` with a typed error, which the fetch's
 * reads fail with (the socket closed); an `outer` signal (the client gone) aborts it too.
 */
export class TransferWatch {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private received = 0;
  private timers: NodeJS.Timeout[] = [];
  private unlink = () => {};

  constructor(
    private readonly href: string,
    private readonly limits: PaceLimits,
    outer?: AbortSignal,
  ) {
    const { deadlineMs } = limits;
    if (deadlineMs !== undefined && deadlineMs > 0) {
      const detail = {
        en: `${href} did not send the whole blob within ${deadlineMs / 1000} s`,
        fr: `${href} n’a pas envoyé le blob entier en ${deadlineMs / 1000} s`,
      };
      this.timers.push(setTimeout(() => this.abort(new MirrorTimeoutError(detail)), deadlineMs).unref());
    }
    if (outer) {
      const onAbort = () => this.abort(outer.reason);
      if (outer.aborted) onAbort();
      else {
        outer.addEventListener('abort', onAbort, { once: true });
        this.unlink = () => outer.removeEventListener('abort', onAbort);
      }
    }
  }

  /** The headers arrived: the body's rate is judged from one window on (the grace a slow start gets). */
  bodyStarted(): void {
    const { minBytesPerSecond = 0, rateWindowMs = 0 } = this.limits;
    if (minBytesPerSecond <= 0 || rateWindowMs <= 0 || this.signal.aborted) return;
    const least = Math.ceil((minBytesPerSecond * rateWindowMs) / 1000);
    // Bytes received at each of the last STEPS ticks (and at the start): the oldest is a window ago.
    const marks = [this.received];
    const tick = () => {
      marks.push(this.received);
      if (marks.length <= STEPS) return;
      const inWindow = this.received - marks.shift()!;
      if (inWindow >= least) return;
      const detail = {
        en:
          `${this.href} sent ${inWindow} bytes in ${rateWindowMs / 1000} s, ` +
          `less than the ${minBytesPerSecond} bytes a second a mirror keeps up`,
        fr:
          `${this.href} a envoyé ${inWindow} octets en ${rateWindowMs / 1000} s, ` +
          `moins que les ${minBytesPerSecond} octets par seconde qu’un miroir doit tenir`,
      };
      this.abort(new MirrorTooSlowError(detail));
    };
    this.timers.push(setInterval(tick, rateWindowMs / STEPS).unref());
  }

  /** Bytes of the body, counted as they are read. */
  count(bytes: number): void {
    this.received += bytes;
  }

  /** Stops watching (the fetch is over, however it ended). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    this.unlink();
  }

  private abort(reason: unknown): void {
    this.close();
    if (!this.signal.aborted) this.controller.abort(reason);
  }
}
