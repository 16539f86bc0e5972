export interface BackoffSettings {
  initialMs: number;
  maxMs: number;
}

/**
 * Exponential back-off with jitter: each delay is drawn between half and all of `initialMs · 2^attempt`
 * (capped at `maxMs`), so clients that lost the same relay at the same moment do not come back in step.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly settings: BackoffSettings,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const ceiling = Math.min(this.settings.maxMs, this.settings.initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return ceiling * (0.5 + this.random() / 2);
  }

  /** After a connection (or subscription) stayed healthy: the next failure starts from `initialMs` again. */
  reset(): void {
    this.attempt = 0;
  }
}
