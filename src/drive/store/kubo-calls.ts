import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../clock.js';
import { DependencyError } from '../../errors.js';
import { OutageLog } from '../../outage-log.js';
import { isNotPinned, translateKuboError } from './kubo-errors.js';

interface Deadline {
  signal: AbortSignal;
  timedOut: () => boolean;
}

/** Our own deadline, combined with the caller's signal; `timedOut` tells the two apart. */
export function deadline(ms: number, signal?: AbortSignal): Deadline {
  const timer = AbortSignal.timeout(ms);
  return {
    signal: signal ? AbortSignal.any([signal, timer]) : timer,
    timedOut: () => timer.aborted && !signal?.aborted,
  };
}

/**
 * What every call to a Kubo node goes through: a deadline for the short calls, the store's typed errors for
 * what kubo-rpc-client throws, and the node's outage told once when it starts and once when it ends.
 */
export class KuboCalls {
  private readonly outage: OutageLog;

  constructor(
    private readonly api: string,
    readonly timeoutMs: number,
    logger?: Pick<Logger, 'warn' | 'info'>,
    clock: Clock = systemClock,
  ) {
    this.outage = new OutageLog(`Kubo ${api}`, logger, clock);
  }

  succeeded(): void {
    this.outage.succeeded();
  }

  /** Counts a failure toward an outage when the node did not answer (down, timed out), then returns it. */
  failed(error: unknown, path: string, timedOut: boolean): Error {
    const translated = translateKuboError(error, path, this.api, timedOut);
    if (translated instanceof DependencyError && translated.kind !== 'failed')
      this.outage.failed(translated.message);
    return translated;
  }

  /** A short call (stat, ls, pins, block put), bounded by `timeoutMs`. */
  async call<T>(
    path: string,
    signal: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const limit = deadline(this.timeoutMs, signal);
    try {
      const answer = await run(limit.signal);
      this.outage.succeeded();
      return answer;
    } catch (error) {
      const translated = this.failed(error, path, limit.timedOut());
      // `pin rm` of something not pinned is reported by message; keep it recognisable for unpin().
      if (isNotPinned(error)) throw error;
      throw translated;
    }
  }
}
