import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT, type Config } from '../../config/config.js';

/** Variables of the service's own environment a script inherits; everything else (SMTP_URL, keys…) stays out. */
const INHERITED = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'USER', 'LOGNAME'];
/** Settings of the scraper scripts themselves (the shipped ones document YTDLP, PYTHON, YOUTUBE_*, LEBONCOIN_*). */
const SCRIPT_SETTINGS = /^(?:YTDLP|PYTHON|(?:YOUTUBE|LEBONCOIN|SCRAPER)_[A-Z0-9_]+)$/;
const SERVICE_SETTINGS = new Set(['SCRAPER_AT', 'SCRAPER_TIMEOUT', 'SCRAPER_CONCURRENCY']);

/** The URL a script on this machine uses to reach the HTTP API, whatever address it listens on. */
export function stationUrl(config: Pick<Config, 'host' | 'port'>): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const host = wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/**
 * How a script runs this project's command-line tool (split on spaces by the scripts, never evaluated):
 * the built CLI in production, the TypeScript sources through tsx when the service itself runs from them.
 */
export function defaultStationCli(): string {
  const built = `${process.execPath} ${join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js')}`;
  if (fileURLToPath(import.meta.url).includes(`${sep}dist${sep}`)) return built;
  try {
    // By absolute URL: scripts run in TMP_DIR, where a bare `tsx` specifier would not resolve.
    return `${process.execPath} --import ${import.meta.resolve('tsx')} ${join(PROJECT_ROOT, 'src', 'cli', 'main.ts')}`;
  } catch {
    return built;
  }
}

export interface ScriptEnvOptions {
  config: Pick<
    Config,
    'dataRoot' | 'tmpDir' | 'scriptsDir' | 'host' | 'port' | 'ipfsApi' | 'ipfsGateway' | 'driveQuotaBytes'
  >;
  /** The service's environment, filtered here. */
  inherited?: NodeJS.ProcessEnv;
  stationCli?: string;
  /** Added last (tests point the scripts at local stand-ins this way). */
  extra?: Record<string, string>;
}

export function scriptEnvironment(options: ScriptEnvOptions): NodeJS.ProcessEnv {
  const source = options.inherited ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (INHERITED.includes(name) || (SCRIPT_SETTINGS.test(name) && !SERVICE_SETTINGS.has(name)))
      env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return {
    ...env,
    DATA_ROOT: options.config.dataRoot,
    TMP_DIR: options.config.tmpDir,
    SCRIPTS_DIR: options.config.scriptsDir,
    STATION_URL: stationUrl(options.config),
    STATION_CLI: options.stationCli ?? defaultStationCli(),
    // What the CLI the scripts call (`drive add`) needs to act on the same drive as the service.
    ...(options.config.ipfsApi ? { IPFS_API: options.config.ipfsApi } : {}),
    IPFS_GATEWAY: options.config.ipfsGateway,
    DRIVE_QUOTA_MB: String(Math.floor(options.config.driveQuotaBytes / (1024 * 1024))),
    ...options.extra,
  };
}
