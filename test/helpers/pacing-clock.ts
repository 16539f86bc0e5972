import type { PacingClock } from '../../src/state/commit-pacing.js';

/** A clock that stands still until told, and whose sleeps end when the test releases them. */
export function pacingClock() {
  let now = 1_000;
  const sleeps: { ms: number; wake: () => void }[] = [];
  const clock: PacingClock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleeps.push({ ms, wake })),
  };
  return {
    clock,
    sleeps,
    advance(ms: number) {
      now += ms;
    },
    /** Ends the oldest sleep, moving the clock past it. */
    wakeFirst() {
      const sleep = sleeps.shift()!;
      now += sleep.ms;
      sleep.wake();
    },
  };
}
