import { VirtualTimeScheduler } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScanSummary } from '../../src/cookies/scraper/scan.js';
import { scraperStream } from '../../streams/scraper.stream.js';

// Set before any date is built, including at collection time.
const previousTz = process.env.TZ;
process.env.TZ = 'Europe/Paris';
afterAll(() => {
  process.env.TZ = previousTz;
});

const HOUR = 3_600_000;
const summary = (date: string): ScanSummary => ({
  date,
  startedAt: `${date}T20:12:00.000`,
  ran: 0,
  skipped: 0,
  notified: 0,
  failed: 0,
  items: [],
});
const wallClock = (ms: number) => {
  const d = new Date(ms);
  return `${d.getMonth() + 1}-${d.getDate()} ${d.getHours()}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** Virtual time from `start`; `advanceTo` runs the timers due until then and lets promises settle. */
function virtualTime(start: number) {
  const scheduler = new VirtualTimeScheduler(undefined, 0);
  const clock = { now: () => start + scheduler.now() };
  return {
    scheduler,
    clock,
    async advanceTo(ms: number) {
      scheduler.maxFrames = ms - start;
      scheduler.flush();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('scraperStream (the daily RxJS timer)', () => {
  const start = new Date(2026, 9, 24, 9, 0).getTime(); // Saturday before the autumn DST change

  it('runs a scan at SCRAPER_AT local time, and again the next day (across the DST change)', async () => {
    const time = virtualTime(start);
    const scans: string[] = [];
    const summaries: ScanSummary[] = [];
    const subscription = scraperStream({
      at: { hour: 20, minute: 12 },
      clock: time.clock,
      scheduler: time.scheduler,
      scan: async () => {
        scans.push(wallClock(time.clock.now()));
        return summary('x');
      },
    }).subscribe((s) => summaries.push(s));

    const local = (day: number, hour: number, minute: number) =>
      new Date(2026, 9, day, hour, minute).getTime();
    await time.advanceTo(local(24, 20, 11));
    expect(scans).toEqual([]);
    await time.advanceTo(local(24, 20, 12));
    expect(scans).toEqual(['10-24 20:12']);
    // Sunday is a 25-hour day: 24 hours after Saturday's run it is only 19:12.
    await time.advanceTo(local(24, 20, 12) + 24 * HOUR);
    expect(scans).toEqual(['10-24 20:12']);
    await time.advanceTo(local(25, 20, 12));
    expect(scans).toEqual(['10-24 20:12', '10-25 20:12']);
    await time.advanceTo(local(26, 20, 12));
    expect(scans).toEqual(['10-24 20:12', '10-25 20:12', '10-26 20:12']);
    expect(summaries).toHaveLength(3);
    subscription.unsubscribe();
  });

  it('never overlaps scans, survives a failing scan, and aborts the running scan when unsubscribed', async () => {
    const time = virtualTime(start);
    const signals: AbortSignal[] = [];
    let calls = 0;
    const subscription = scraperStream({
      at: { hour: 20, minute: 12 },
      clock: time.clock,
      scheduler: time.scheduler,
      scan: (signal) => {
        calls += 1;
        signals.push(signal);
        if (calls === 1) return Promise.reject(new Error('disk full'));
        return new Promise<ScanSummary>(() => undefined); // the second scan hangs for days
      },
    }).subscribe();

    await time.advanceTo(start + 12 * HOUR); // first firing: fails
    await time.advanceTo(start + 36 * HOUR); // second firing: hangs
    await time.advanceTo(start + 84 * HOUR); // two more firings while it hangs: not started
    expect(calls).toBe(2);
    expect(signals[1]!.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signals[1]!.aborted).toBe(true);
  });
});
