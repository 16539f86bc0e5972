import type { Logger } from 'pino';
import {
  catchError,
  defer,
  EMPTY,
  exhaustMap,
  finalize,
  from,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { Clock } from '../src/clock.js';
import { dailyAt$, type TimeOfDay } from '../src/cookies/scraper/schedule.js';
import type { ScanSummary } from '../src/cookies/scraper/scan.js';

export interface ScraperStreamDeps {
  /** `SCRAPER_AT`, local time. */
  at: TimeOfDay;
  clock: Clock;
  /** One full scan (`Scraper.scan`); the signal aborts when the stream is unsubscribed (shutdown). */
  scan: (signal: AbortSignal) => Promise<ScanSummary>;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * The daily scraper schedule (docs/decisions.md, "The daily schedule"): a timer stream firing at `SCRAPER_AT`
 * local time, each firing running one scan. A scan still running at the next firing is not doubled
 * (exhaustMap); a failed scan is logged and the schedule goes on. Several processes (PM2 workers, the CLI)
 * may scan at once: the per-day markers, created exclusively, keep each script to one run a day.
 * Unsubscribing (shutdown) stops the scripts still running, whose process groups are killed.
 */
export function scraperStream(deps: ScraperStreamDeps): Observable<ScanSummary> {
  return dailyAt$(deps.at, { clock: deps.clock, scheduler: deps.scheduler }).pipe(
    exhaustMap((due) => {
      deps.logger?.info({ due: new Date(due).toISOString() }, 'daily scraper scan starting');
      return defer(() => {
        const abort = new AbortController();
        return from(deps.scan(abort.signal)).pipe(finalize(() => abort.abort()));
      }).pipe(
        catchError((error: unknown) => {
          deps.logger?.error({ err: error }, 'daily scraper scan failed');
          return EMPTY;
        }),
      );
    }),
  );
}
