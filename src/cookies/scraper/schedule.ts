import { asyncScheduler, defer, Observable, timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { Clock } from '../../clock.js';

export interface TimeOfDay {
  hour: number;
  minute: number;
}

/**
 * The first instant strictly after `nowMs` whose local wall-clock time is `at`. Built from calendar fields
 * (never by adding 24 h), so it stays at the same local time across DST changes: a time skipped by the
 * spring change resolves to the instant just after the gap, a time repeated in autumn to its first occurrence.
 */
export function nextRunAt(nowMs: number, at: TimeOfDay): number {
  const now = new Date(nowMs);
  for (let day = 0; day < 3; day++) {
    const candidate = new Date(now.getFullYear(), now.getMonth(), now.getDate() + day, at.hour, at.minute);
    if (candidate.getTime() > nowMs) return candidate.getTime();
  }
  throw new Error('no next run found'); // unreachable: some day within three is always later
}

export interface DailyOptions {
  clock: Clock;
  /** Delays are measured on this scheduler; tests pass a virtual-time scheduler driving `clock`. */
  scheduler?: SchedulerLike;
  /**
   * The longest single wait. Timers run on a monotonic clock that ignores wall-clock jumps (NTP steps,
   * suspend, manual changes), so long waits are cut into slices and the wall clock is re-read after each.
   */
  maxWaitMs?: number;
}

/**
 * Emits the scheduled instant (ms) each day at `at` local time, for as long as it is subscribed. Each next
 * run is computed from the wall clock at that moment, so the schedule never drifts and a restart simply
 * waits for the next occurrence. An instant is emitted once even if the clock is read late.
 */
export function dailyAt$(at: TimeOfDay, options: DailyOptions): Observable<number> {
  const { clock } = options;
  const scheduler = options.scheduler ?? asyncScheduler;
  const maxWaitMs = options.maxWaitMs ?? 5 * 60_000;
  return new Observable<number>((subscriber) => {
    let due = nextRunAt(clock.now(), at);
    let pending: Subscription | null = null;
    const wait = (): void => {
      const delay = Math.min(Math.max(due - clock.now(), 0), maxWaitMs);
      pending = defer(() => timer(delay, scheduler)).subscribe(() => {
        const now = clock.now();
        if (now >= due) {
          const fired = due;
          due = nextRunAt(Math.max(now, fired), at);
          subscriber.next(fired);
        } else if (due - now > 36 * 3_600_000) {
          // The wall clock went backwards by more than a day: start again from the new present.
          due = nextRunAt(now, at);
        }
        if (!subscriber.closed) wait();
      });
    };
    wait();
    return () => pending?.unsubscribe();
  });
}
