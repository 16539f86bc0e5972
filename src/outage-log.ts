import type { Logger } from 'pino';
import type { Clock } from './clock.js';

/**
 * Logs a dependency's outage twice: once when it starts (the first failure, with its reason) and once when
 * it ends (the first success after it, with how many calls failed and for how long), instead of a line,
 * or a stack, for every call that failed in between.
 */
export class OutageLog {
  private failedCalls = 0;
  private since = 0;

  constructor(
    /** What is out, as the lines name it: `indexer https://…`, `relay ws://…`. */
    private readonly what: string,
    private readonly logger: Pick<Logger, 'warn' | 'info'> | undefined,
    private readonly clock: Clock,
  ) {}

  get down(): boolean {
    return this.failedCalls > 0;
  }

  /** One failed call; only the first of an outage is logged. */
  failed(reason: string, fields: Record<string, unknown> = {}): void {
    if (this.failedCalls++ === 0) {
      this.since = this.clock.now();
      this.logger?.warn({ ...fields, reason }, `${this.what} unreachable`);
    }
  }

  /** A call that worked: ends the outage, if there was one. */
  succeeded(fields: Record<string, unknown> = {}): void {
    if (this.failedCalls === 0) return;
    const downSeconds = Math.round((this.clock.now() - this.since) / 1000);
    this.logger?.info(
      { ...fields, failed_calls: this.failedCalls, down_s: downSeconds },
      `${this.what} back after ${this.failedCalls} failed call${this.failedCalls === 1 ? '' : 's'}`,
    );
    this.failedCalls = 0;
  }
}
