import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { catchError, connect, filter, from, lastValueFrom, map, merge, mergeMap, of, toArray } from 'rxjs';
import { localDate, localTimestamp, type Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import type { Mailer } from '../../mail/mailer.js';
import { listCookieFiles, type CookieFileFilter } from './cookie-files.js';
import { decide, item, type Decision, type ScanItem } from './decide.js';
import { logPath, markerPath } from './layout.js';
import { createExclusive, prunePastMarkers } from './markers.js';
import { notifyMissingScraper, notifyRefresh, type NoticeContext, type NoticeResult } from './notices.js';
import { runScript } from './runner.js';
import { ScriptFinder, type ScanFs } from './scripts.js';

export type { ScanItem };

export interface ScanDeps {
  config: Pick<
    Config,
    'dataRoot' | 'tmpDir' | 'scriptsDir' | 'captainEmail' | 'scraperTimeoutSeconds' | 'scraperConcurrency'
  >;
  mailer: Pick<Mailer, 'send'>;
  clock: Clock;
  /** The scripts' whole environment (see `scriptEnvironment`). */
  scriptEnv: NodeJS.ProcessEnv;
  logger?: Logger;
  fs?: ScanFs;
  killGraceMs?: number;
}

export interface ScanSummary {
  date: string;
  startedAt: string;
  ran: number;
  skipped: number;
  notified: number;
  failed: number;
  items: ScanItem[];
}

/** Cheap decisions (a few stats) in parallel; mails a few at a time; script runs bound by SCRAPER_CONCURRENCY. */
const DECIDE_CONCURRENCY = 16;
const MAIL_CONCURRENCY = 2;

/**
 * One pass over every cookie file (docs/api-contract.md §12). Never throws for one file's sake: every cookie
 * file ends as an item (ran, skipped, notified or failed) in the summary.
 */
export async function runScan(
  deps: ScanDeps,
  only: CookieFileFilter = {},
  signal?: AbortSignal,
): Promise<ScanSummary> {
  const { config, clock, logger } = deps;
  const fs = deps.fs ?? nodeFs;
  const started = clock.now();
  const date = localDate(started);
  await nodeFs.mkdir(config.tmpDir, { recursive: true, mode: 0o700 });
  await prunePastMarkers(config.tmpDir, date, fs);

  const finder = new ScriptFinder(config.scriptsDir, fs);
  const decideContext = { fs, finder, tmpDir: config.tmpDir, date, nowSeconds: Math.floor(started / 1000) };
  const notices: NoticeContext = {
    mailer: deps.mailer,
    fs,
    tmpDir: config.tmpDir,
    date,
    captainEmail: config.captainEmail,
    logger,
    mailOutage: { active: false },
  };

  const decided$ = from(listCookieFiles(join(config.dataRoot, 'nostr'), fs, only)).pipe(
    mergeMap(
      (file) =>
        from(decide(file, decideContext)).pipe(
          catchError((error: unknown) => {
            logger?.warn({ err: error, email: file.email, domain: file.domain }, 'scraper decision failed');
            return of<Decision>({ kind: 'done', item: item(file, 'failed', 'error') });
          }),
        ),
      DECIDE_CONCURRENCY,
    ),
  );
  const items$ = decided$.pipe(
    connect((shared) =>
      merge(
        shared.pipe(
          filter((d) => d.kind === 'done'),
          map((d) => d.item),
        ),
        shared.pipe(
          filter((d) => d.kind === 'missing_script' || d.kind === 'expired'),
          mergeMap((d) => mailFor(d, notices), MAIL_CONCURRENCY),
        ),
        shared.pipe(
          filter((d) => d.kind === 'run'),
          mergeMap((d) => runOne(d, deps, notices, signal), config.scraperConcurrency),
        ),
      ),
    ),
  );
  const items = await lastValueFrom(items$.pipe(toArray()));
  const count = (outcome: ScanItem['outcome']) => items.filter((i) => i.outcome === outcome).length;
  const summary: ScanSummary = {
    date,
    startedAt: localTimestamp(started),
    ran: count('ran'),
    skipped: count('skipped'),
    notified: count('notified'),
    failed: count('failed'),
    items,
  };
  const { items: _items, ...totals } = summary;
  logger?.info(totals, 'scraper scan finished');
  return summary;
}

function noticeItem(d: Extract<Decision, { file: unknown }>, result: NoticeResult, reason: string): ScanItem {
  if (result === 'sent') return item(d.file, 'notified', reason, { mailed: true });
  if (result === 'already') return item(d.file, 'skipped', `${reason}_already_notified`);
  return item(d.file, 'failed', `${reason}_mail_unavailable`);
}

async function mailFor(
  d: Extract<Decision, { kind: 'missing_script' | 'expired' }>,
  notices: NoticeContext,
): Promise<ScanItem> {
  try {
    if (d.kind === 'missing_script')
      return noticeItem(d, await notifyMissingScraper(d.file, notices), 'no_script');
    return noticeItem(d, await notifyRefresh(d.file, d.version, 'expired', notices), 'cookie_expired');
  } catch (error) {
    notices.logger?.warn({ err: error, email: d.file.email, domain: d.file.domain }, 'scraper notice failed');
    return item(d.file, 'failed', 'error');
  }
}

async function runOne(
  d: Extract<Decision, { kind: 'run' }>,
  deps: ScanDeps,
  notices: NoticeContext,
  signal: AbortSignal | undefined,
): Promise<ScanItem> {
  const { file } = d;
  const { config, clock, logger } = deps;
  // Shutting down: what has not started stays without a marker and runs at the next scan.
  if (signal?.aborted) return item(file, 'skipped', 'stopped');
  try {
    // Created when the run starts, exclusively: overlapping scans and restarts never run it twice a day.
    const marker = markerPath(config.tmpDir, file.domain, file.email, notices.date);
    if (!(await createExclusive(marker, `${localTimestamp(clock.now())} pid ${process.pid}\n`))) {
      return item(file, 'skipped', 'already_ran_today');
    }
    const result = await runScript({
      script: d.script,
      args: [file.email, file.path],
      env: deps.scriptEnv,
      cwd: config.tmpDir,
      logFile: logPath(config.tmpDir, file.domain, file.email),
      timeoutMs: config.scraperTimeoutSeconds * 1000,
      clock,
      killGraceMs: deps.killGraceMs,
      signal,
    });
    const summary = { email: file.email, domain: file.domain, ...result };
    if (result.exitCode === 0) {
      logger?.info(summary, 'scraper ran');
      return item(file, 'ran', 'ok', { exitCode: 0 });
    }
    logger?.warn(summary, 'scraper failed');
    if (result.timedOut) return item(file, 'failed', 'timeout', { exitCode: result.exitCode });
    if (result.spawnError) return item(file, 'failed', 'spawn_failed');
    if (result.exitCode === 2) {
      const mailed = (await notifyRefresh(file, d.version, 'rejected', notices)) === 'sent';
      return item(file, 'failed', 'cookie_rejected', { exitCode: 2, mailed });
    }
    return item(file, 'failed', result.signal ? 'killed' : 'exit_status', { exitCode: result.exitCode });
  } catch (error) {
    logger?.warn({ err: error, email: file.email, domain: file.domain }, 'scraper run failed');
    return item(file, 'failed', 'error');
  }
}
