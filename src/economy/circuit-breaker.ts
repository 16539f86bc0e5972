import type { Clock } from '../clock.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  clock: Clock;
  /** Failures in a row that open the circuit. Default 3. */
  failureThreshold?: number;
  /** How long an open circuit refuses every call before it lets one through to probe. Default 30 s. */
  coolDownMs?: number;
  /** Told when the circuit opens after being closed, and when it closes again (not of each probe). */
  onChange?: (state: 'open' | 'closed', failures: number) => void;
}

export interface CircuitHealth {
  state: CircuitState;
  /** Failed calls since the last one that worked. */
  consecutiveFailures: number;
  /** While open: milliseconds before a call is let through again; null otherwise. */
  retryInMs: number | null;
}

/** Thrown in place of a call the open circuit did not make. */
export class CircuitOpen extends Error {
  constructor(
    readonly retryInMs: number,
    readonly failures: number,
  ) {
    super(`circuit open after ${failures} failures in a row`);
  }
}

/**
 * A circuit breaker: after `failureThreshold` failed calls in a row, calls fail at once (`CircuitOpen`) for
 * `coolDownMs`; then one call goes through as a probe while the others still fail at once (half-open). The
 * probe working closes the circuit; failing, it opens it for another cool-down. A slow dependency then costs
 * its time-out to `failureThreshold` calls and to one probe per cool-down, not to every caller.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private probing = false;
  private readonly threshold: number;
  private readonly coolDownMs: number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.threshold = options.failureThreshold ?? 3;
    this.coolDownMs = options.coolDownMs ?? 30_000;
  }

  health(): CircuitHealth {
    const remaining = this.remainingMs();
    const state: CircuitState =
      this.openedAt === null ? 'closed' : this.probing || remaining === 0 ? 'half-open' : 'open';
    return {
      state,
      consecutiveFailures: this.failures,
      retryInMs: state === 'open' ? remaining : null,
    };
  }

  /**
   * Runs `call` unless the circuit is open. An error for which `counts` is false (the caller gave up, say)
   * neither opens nor closes the circuit.
   */
  async run<T>(call: () => Promise<T>, counts: (error: unknown) => boolean = () => true): Promise<T> {
    const probe = this.openedAt !== null;
    if (probe) {
      if (this.probing || this.remainingMs() > 0) {
        throw new CircuitOpen(Math.max(this.remainingMs(), 1_000), this.failures);
      }
      this.probing = true;
    }
    try {
      const result = await call();
      const wasOpen = this.openedAt !== null;
      this.failures = 0;
      this.openedAt = null;
      if (wasOpen) this.options.onChange?.('closed', 0);
      return result;
    } catch (error) {
      if (counts(error)) {
        this.failures++;
        // Calls that were already running when the circuit opened do not push its cool-down further.
        if (probe) this.openedAt = this.options.clock.now();
        else if (this.openedAt === null && this.failures >= this.threshold) {
          this.openedAt = this.options.clock.now();
          this.options.onChange?.('open', this.failures);
        }
      }
      throw error;
    } finally {
      if (probe) this.probing = false;
    }
  }

  private remainingMs(): number {
    if (this.openedAt === null) return 0;
    return Math.max(0, this.openedAt + this.coolDownMs - this.options.clock.now());
  }
}
