import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock.js';
import { mappedBytes, megabytes, readMemory, unmappedBytes, type MemoryReading } from './memory.js';

/** How often the watchdog reads the process's memory. */
export const MEMORY_SAMPLE_INTERVAL_MS = 5_000;
/** Consecutive readings over the limit before the station stops: one spike (a large upload held) is not enough. */
export const MEMORY_SAMPLES_OVER_LIMIT = 3;

export interface MemorySample {
  /** When it was read (ms since the epoch, from the watchdog's clock). */
  at: number;
  reading: MemoryReading;
}

export interface MemoryPolicy {
  /** MEMORY_LIMIT_MB in bytes; 0: the watchdog never stops the station. */
  limitBytes: number;
  /** Consecutive samples over the limit that stop the station. */
  samplesOverLimit: number;
}

export type MemoryDecision =
  | { verdict: 'fine'; countedBytes: number }
  /** Over the limit, not for long enough yet. */
  | { verdict: 'over'; countedBytes: number; samplesOver: number }
  /** Over the limit for `samplesOver` samples in a row, since `overSince`: stop, to be restarted. */
  | { verdict: 'restart'; countedBytes: number; samplesOver: number; overSince: number; overForMs: number };

/**
 * The watchdog's decision from its samples, oldest first: restart when the last `samplesOverLimit` of them
 * all held more than the limit of unmapped memory (`unmappedBytes`). Pages of mapped files are never counted,
 * however many: the kernel reclaims them at will, and a restart would only map them again.
 */
export function decideMemory(samples: readonly MemorySample[], policy: MemoryPolicy): MemoryDecision {
  const last = samples.at(-1);
  if (!last) return { verdict: 'fine', countedBytes: 0 };
  const countedBytes = unmappedBytes(last.reading);
  if (policy.limitBytes === 0) return { verdict: 'fine', countedBytes };
  let samplesOver = 0;
  for (let i = samples.length - 1; i >= 0 && unmappedBytes(samples[i]!.reading) > policy.limitBytes; i--) {
    samplesOver++;
  }
  if (samplesOver === 0) return { verdict: 'fine', countedBytes };
  if (samplesOver < policy.samplesOverLimit) return { verdict: 'over', countedBytes, samplesOver };
  const overSince = samples[samples.length - samplesOver]!.at;
  return { verdict: 'restart', countedBytes, samplesOver, overSince, overForMs: last.at - overSince };
}

export interface MemoryWatchdogOptions {
  limitBytes: number;
  logger: Logger;
  /** Called once, after the error line, when the station must stop (src/main.ts: as on SIGTERM, then exit 75). */
  onLimit: (decision: Extract<MemoryDecision, { verdict: 'restart' }>) => void;
  intervalMs?: number;
  samplesOverLimit?: number;
  read?: () => Promise<MemoryReading>;
  clock?: Clock;
}

export interface MemoryWatchdog {
  /** Takes one sample and decides, as the timer does (tests call it instead of waiting). */
  sample(): Promise<MemoryDecision>;
  stop(): void;
}

/**
 * Reads the memory every `intervalMs` (a timer that keeps no process alive) and, when `decideMemory` says
 * restart, logs one error line with the figures and the limit, stops sampling and calls `onLimit`. PM2
 * (`autorestart`) starts the station again; PM2's own `max_memory_restart` is not used, since it measures the
 * resident set, mapped store pages included (docs/operations.md, "Memory").
 */
export function startMemoryWatchdog(options: MemoryWatchdogOptions): MemoryWatchdog {
  const policy: MemoryPolicy = {
    limitBytes: options.limitBytes,
    samplesOverLimit: options.samplesOverLimit ?? MEMORY_SAMPLES_OVER_LIMIT,
  };
  const read = options.read ?? (() => readMemory());
  const clock = options.clock ?? systemClock;
  const samples: MemorySample[] = [];
  let stopped = false;
  let reading: Promise<MemoryDecision> | null = null;

  const decide = async (): Promise<MemoryDecision> => {
    const sample = { at: clock.now(), reading: await read() };
    samples.push(sample);
    if (samples.length > policy.samplesOverLimit) samples.shift();
    const decision = decideMemory(samples, policy);
    if (decision.verdict === 'restart' && !stopped) {
      stop();
      const figures = sample.reading;
      const counted = megabytes(decision.countedBytes);
      const limit = megabytes(policy.limitBytes);
      const mapped = megabytes(mappedBytes(figures));
      options.logger.error(
        {
          counted_mb: counted,
          limit_mb: limit,
          samples_over: decision.samplesOver,
          over_for_s: Math.round(decision.overForMs / 1000),
          heap_used_mb: megabytes(figures.heapUsed),
          anonymous_mb: megabytes(figures.anonymous),
          swapped_mb: megabytes(figures.swapped),
          external_mb: megabytes(figures.external),
          rss_mb: megabytes(figures.rss),
          file_backed_mb: mapped,
        },
        `memory over MEMORY_LIMIT_MB: ${counted} MB of heap and anonymous memory against ${limit} MB, ` +
          `${decision.samplesOver} samples in a row (mapped files, not counted: ` +
          `${mapped ?? '?'} MB); stopping to be restarted`,
      );
      options.onLimit(decision);
    }
    return decision;
  };

  const sample = (): Promise<MemoryDecision> => {
    // A read still running (a slow /proc) is not doubled by the next tick.
    reading ??= decide().finally(() => (reading = null));
    return reading;
  };

  let unreadable = false;
  const timer = setInterval(() => {
    sample().then(
      () => (unreadable = false),
      (error: unknown) => {
        // Once per spell (no file descriptor left, say), not every tick.
        if (!unreadable) options.logger.warn({ err: error }, 'memory not readable; watchdog skips samples');
        unreadable = true;
      },
    );
  }, options.intervalMs ?? MEMORY_SAMPLE_INTERVAL_MS);
  timer.unref();

  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }

  return { sample, stop };
}
