import { VirtualTimeScheduler } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { dailyAt$, nextRunAt } from '../../../src/cookies/scraper/schedule.js';

// Local time matters here: a zone with DST changes (last Sundays of March and October).
// Set before any date is built, including at collection time.
const previousTz = process.env.TZ;
process.env.TZ = 'Europe/Paris';
afterAll(() => {
  process.env.TZ = previousTz;
});

const local = (y: number, mo: number, d: number, h: number, mi: number) =>
  new Date(y, mo - 1, d, h, mi).getTime();
const wallClock = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()} ${d.getHours()}:${String(d.getMinutes()).padStart(2, '0')}`;
};
const HOUR = 3_600_000;

describe('nextRunAt', () => {
  it('is later today before the time, tomorrow at or after it', () => {
    const at = { hour: 20, minute: 12 };
    expect(wallClock(nextRunAt(local(2026, 11, 22, 9, 0), at))).toBe('2026-11-22 20:12');
    expect(wallClock(nextRunAt(local(2026, 11, 22, 20, 12), at))).toBe('2026-11-23 20:12');
    expect(wallClock(nextRunAt(local(2026, 11, 22, 23, 59), at))).toBe('2026-11-23 20:12');
    expect(wallClock(nextRunAt(local(2026, 12, 31, 21, 0), at))).toBe('2027-1-1 20:12');
  });

  it('keeps the local time across DST: 23 h in spring, 25 h in autumn', () => {
    const at = { hour: 20, minute: 12 };
    const beforeSpring = nextRunAt(local(2026, 3, 28, 21, 0), at); // 2026-03-29 20:12 CEST
    expect(beforeSpring - local(2026, 3, 28, 20, 12)).toBe(23 * HOUR);
    const beforeAutumn = nextRunAt(local(2026, 10, 24, 21, 0), at); // 2026-10-25 20:12 CET
    expect(beforeAutumn - local(2026, 10, 24, 20, 12)).toBe(25 * HOUR);
    expect(wallClock(beforeAutumn)).toBe('2026-10-25 20:12');
  });

  it('a time skipped by the spring change runs just after the gap; a repeated one runs once', () => {
    const skipped = nextRunAt(local(2026, 3, 29, 0, 0), { hour: 2, minute: 30 });
    expect(wallClock(skipped)).toBe('2026-3-29 3:30');
    const repeated = nextRunAt(local(2026, 10, 25, 0, 0), { hour: 2, minute: 30 });
    // After firing at the first 02:30, the next run is the following day, not the second 02:30.
    expect(wallClock(nextRunAt(repeated, { hour: 2, minute: 30 }))).toBe('2026-10-26 2:30');
  });
});

/** Virtual time: the scheduler's frames are milliseconds after `start`, and the clock reads them. */
function virtualTime(start: number, horizonMs: number) {
  const scheduler = new VirtualTimeScheduler(undefined, horizonMs);
  let offset = 0;
  const clock = { now: () => start + offset + scheduler.now() };
  return { scheduler, clock, jump: (ms: number) => (offset += ms) };
}

describe('dailyAt$', () => {
  it('fires at SCRAPER_AT local time, then every following day at the same local time across DST', () => {
    const start = local(2026, 10, 22, 9, 0);
    const { scheduler, clock } = virtualTime(start, 5 * 24 * HOUR);
    const fired: string[] = [];
    const firedAtClock: number[] = [];
    const subscription = dailyAt$({ hour: 20, minute: 12 }, { clock, scheduler }).subscribe((due) => {
      fired.push(wallClock(due));
      firedAtClock.push(clock.now());
    });
    scheduler.flush();
    subscription.unsubscribe();
    expect(fired).toEqual([
      '2026-10-22 20:12',
      '2026-10-23 20:12',
      '2026-10-24 20:12',
      '2026-10-25 20:12',
      '2026-10-26 20:12',
    ]);
    // Each firing happens at its instant, not before, and not late.
    expect(firedAtClock.map(wallClock)).toEqual(fired);
  });

  it('does not fire before the time on the first day (restart after today’s run time waits for tomorrow)', () => {
    const { scheduler, clock } = virtualTime(local(2026, 11, 22, 20, 13), 23 * HOUR);
    const fired: number[] = [];
    dailyAt$({ hour: 20, minute: 12 }, { clock, scheduler }).subscribe((due) => fired.push(due));
    scheduler.flush();
    expect(fired).toEqual([]);
  });

  it('re-reads the wall clock: a clock stepped forward past the time fires once, at once', () => {
    const { scheduler, clock, jump } = virtualTime(local(2026, 11, 22, 9, 0), 2 * HOUR);
    const fired: string[] = [];
    dailyAt$({ hour: 20, minute: 12 }, { clock, scheduler, maxWaitMs: 60_000 }).subscribe((due) =>
      fired.push(wallClock(due)),
    );
    jump(12 * HOUR); // 21:00 wall clock after a suspend or NTP step, while the timer waited
    scheduler.flush();
    expect(fired).toEqual(['2026-11-22 20:12']);
  });

  it('stops when unsubscribed', () => {
    const { scheduler, clock } = virtualTime(local(2026, 11, 22, 9, 0), 3 * 24 * HOUR);
    const fired: number[] = [];
    const subscription = dailyAt$({ hour: 20, minute: 12 }, { clock, scheduler }).subscribe((due) => {
      fired.push(due);
      subscription.unsubscribe();
    });
    scheduler.flush();
    expect(fired).toHaveLength(1);
  });
});
