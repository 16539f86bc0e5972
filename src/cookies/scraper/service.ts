import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import type { Mailer } from '../../mail/mailer.js';
import type { CookieFileFilter } from './cookie-files.js';
import { scriptEnvironment } from './environment.js';
import { runScan, type ScanSummary } from './scan.js';

export interface ScraperOptions {
  config: Omit<Config, 'wallets'>;
  clock: Clock;
  mailer: Pick<Mailer, 'send'>;
  logger?: Logger;
  /** STATION_CLI for the scripts; defaults to this build's `dist/src/cli/main.js`. */
  stationCli?: string;
  /** Added to the scripts' environment (tests point the shipped scripts at local stand-ins). */
  extraEnv?: Record<string, string>;
  killGraceMs?: number;
}

export interface Scraper {
  scan(only?: CookieFileFilter, signal?: AbortSignal): Promise<ScanSummary>;
}

/** The scraper bound to the configuration: what the daily stream and `station scrape --now` call. */
export function createScraper(options: ScraperOptions): Scraper {
  const scriptEnv = scriptEnvironment({
    config: options.config,
    stationCli: options.stationCli,
    extra: options.extraEnv,
  });
  return {
    scan: (only, signal) =>
      runScan(
        {
          config: options.config,
          mailer: options.mailer,
          clock: options.clock,
          scriptEnv,
          logger: options.logger,
          killGraceMs: options.killGraceMs,
        },
        only,
        signal,
      ),
  };
}
