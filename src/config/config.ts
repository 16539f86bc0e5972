import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StationWallets } from '../identity/keys.js';
import { checkWalletOverrides, paymentCommand, stationWallets } from './economy.js';
import { relayConfig, type RelayConfig } from './relay.js';
import { swarmConfig, type SwarmConfig } from './swarm.js';
import { authConfig, type AuthConfig } from './auth.js';
import { mediaConfig, type MediaConfig } from './media.js';
import { blossomConfig, type BlossomConfig } from './blossom.js';
import { embeddedAddresses, type EmbeddedAddresses } from './listen.js';
import {
  absolutePath,
  addressList,
  boolean,
  checkUrl,
  ConfigError,
  email,
  type Env,
  integer,
  list,
  oneOf,
  raw,
  timeOfDay,
  url,
} from './parse.js';

export { ConfigError };

/** Project root, whether running from `src/` (tsx, vitest) or from `dist/src/` (npm start). */
export const PROJECT_ROOT = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes(`${join('dist', 'src')}`) ? resolve(here, '../../..') : resolve(here, '../..');
})();

export const ORIGIN_UPLANETNAME = '0'.repeat(64);

export interface Config {
  port: number;
  host: string;
  dataRoot: string;
  tmpDir: string;
  scriptsDir: string;
  relayUrl: string;
  embeddedRelay: 'auto' | 'on' | 'off';
  relay: RelayConfig;
  /** Sister stations' relays synced with the embedded relay (SWARM_RELAYS). */
  swarm: SwarmConfig;
  ipfsApi: string | null;
  ipfsGateway: string;
  /** Where the embedded relay and gateway listen (src/config/listen.ts). */
  listen: EmbeddedAddresses['listen'];
  /** SQUID_URL first, then SQUID_FALLBACKS in order. */
  squidUrls: string[];
  uplanetName: string;
  wallets: StationWallets;
  ipfsNodeId: string | null;
  salesMarker: string;
  smtpUrl: string | null;
  mailFrom: string;
  captainEmail: string | null;
  scraperAt: { hour: number; minute: number };
  scraperTimeoutSeconds: number;
  scraperConcurrency: number;
  authMaxAgeSeconds: number;
  authRequireProof: boolean;
  auth: AuthConfig;
  rateLimit: { max: number; windowSeconds: number };
  trustedIps: string[];
  trustedProxies: string[];
  paymentCommand: string | null;
  paymentDailyCapZen: number;
  paymentConcurrency: number;
  paymentTimeoutSeconds: number;
  paymentMaxAttempts: number;
  /** A like older than this when the station first sees it is not paid (a replayed old reaction). */
  likeMaxAgeSeconds: number;
  driveQuotaBytes: number;
  /** The content store's garbage collection (src/drive/gc/). */
  store: {
    /** STORE_GC_INTERVAL_S: seconds between two collections; 0 = never (`station gc` still collects). */
    gcIntervalSeconds: number;
    /** STORE_KEEP_ROOTS_S: how long a CID handed to a client (a root, a wrapper) stays readable. */
    keepRootsSeconds: number;
  };
  /** ffmpeg / ffprobe for the media fields of `/api/fileupload`. */
  media: MediaConfig;
  /** Blossom, NIP-96 and NIP-94 (src/drive/blossom, src/drive/nip96). */
  blossom: BlossomConfig;
  /** Per-user upload limits, and per client address (TRUSTED_IPS exempt), on top of the per-IP rate limit. */
  uploads: {
    maxConcurrent: number;
    maxPerMinute: number;
    perAddress: { maxConcurrent: number; maxPerMinute: number };
    /** Uploads in flight in this process, all users and addresses together (trusted ones too). */
    maxTotal: number;
  };
  /** Backpressure: limits past which requests are answered 503 at once (0 = no limit). */
  overload: { maxEventLoopDelayMs: number; maxRssBytes: number };
  /** DISK_MIN_FREE_MB: `/health` is degraded under this much free space on DATA_ROOT's file system. */
  diskMinFreeBytes: number;
  /**
   * MEMORY_LIMIT_MB: heap and anonymous memory (never mapped file pages) past which the station stops itself,
   * to be restarted by PM2 (src/process/memory-watchdog.ts); 0 = never.
   */
  memoryLimitBytes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `auto`: pretty lines when stdout is a terminal, JSON otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
}

/** Parses and validates every variable of the contract; throws ConfigError naming the first bad one. */
export async function loadConfig(env: Env = process.env): Promise<Config> {
  const config = loadConfigWithoutWallets(env);
  return { ...config, wallets: await stationWallets(env, config.uplanetName) };
}

/**
 * Every variable but the station wallets, whose derivation (three scrypt runs, about 150–250 ms) only the
 * economy needs: the operator's CLI answers its other commands without it. Wallet overrides are still checked.
 */
export function loadConfigWithoutWallets(env: Env = process.env): Omit<Config, 'wallets'> {
  const home = env.HOME ?? homedir();
  const uplanetName = raw(env, 'UPLANETNAME') ?? ORIGIN_UPLANETNAME;
  const squid = url(env, 'SQUID_URL', 'https://squid.g1.gyroi.de/v1/graphql', ['http:', 'https:'])!;
  const fallbacks = list(env, 'SQUID_FALLBACKS', []).map((item) =>
    checkUrl('SQUID_FALLBACKS', item, ['http:', 'https:']),
  );
  const tmpDir = absolutePath(env, 'TMP_DIR', join(home, '.zen', 'tmp'));
  checkWalletOverrides(env);
  const host = raw(env, 'HOST') ?? '0.0.0.0';
  const { relayUrl, ipfsGateway, listen } = embeddedAddresses(env, host);

  return {
    port: integer(env, 'PORT', 54321, 0, 65535),
    host,
    dataRoot: absolutePath(env, 'DATA_ROOT', join(home, '.zen', 'game')),
    tmpDir,
    scriptsDir: absolutePath(env, 'SCRIPTS_DIR', join(PROJECT_ROOT, 'scripts')),
    relayUrl,
    embeddedRelay: oneOf(env, 'EMBEDDED_RELAY', ['auto', 'on', 'off'] as const, 'auto'),
    relay: relayConfig(env, relayUrl),
    swarm: swarmConfig(env, relayUrl),
    ipfsApi: url(env, 'IPFS_API', null, ['http:', 'https:']),
    ipfsGateway,
    listen,
    squidUrls: [squid, ...fallbacks],
    uplanetName,
    ipfsNodeId: raw(env, 'IPFSNODEID') ?? null,
    salesMarker: raw(env, 'SALES_MARKER') ?? 'ZENCOIN',
    smtpUrl: url(env, 'SMTP_URL', null, ['smtp:', 'smtps:']),
    mailFrom: email(env, 'MAIL_FROM') ?? 'station@localhost.localdomain',
    captainEmail: email(env, 'CAPTAINEMAIL'),
    scraperAt: timeOfDay(env, 'SCRAPER_AT', '20:12'),
    scraperTimeoutSeconds: integer(env, 'SCRAPER_TIMEOUT', 1800, 1, 86_400),
    scraperConcurrency: integer(env, 'SCRAPER_CONCURRENCY', 2, 1, 64),
    authMaxAgeSeconds: integer(env, 'AUTH_MAX_AGE', 86_400, 1, 7 * 86_400),
    authRequireProof: boolean(env, 'AUTH_REQUIRE_PROOF', false),
    auth: authConfig(env),
    rateLimit: {
      max: integer(env, 'RATE_LIMIT_MAX', 100, 1, 1_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW', 60, 1, 86_400),
    },
    trustedIps: addressList(env, 'TRUSTED_IPS', ['127.0.0.1', '::1']),
    trustedProxies: addressList(env, 'TRUSTED_PROXIES', []),
    paymentCommand: paymentCommand(env),
    paymentDailyCapZen: integer(env, 'PAYMENT_DAILY_CAP', 100, 1, 1_000_000),
    paymentConcurrency: integer(env, 'PAYMENT_CONCURRENCY', 2, 1, 32),
    paymentTimeoutSeconds: integer(env, 'PAYMENT_TIMEOUT', 120, 1, 3_600),
    paymentMaxAttempts: integer(env, 'PAYMENT_MAX_ATTEMPTS', 5, 1, 100),
    likeMaxAgeSeconds: integer(env, 'LIKE_MAX_AGE', 3_600, 1, 30 * 86_400),
    driveQuotaBytes: integer(env, 'DRIVE_QUOTA_MB', 650, 1, 1_000_000) * 1024 * 1024,
    store: {
      gcIntervalSeconds: integer(env, 'STORE_GC_INTERVAL_S', 3_600, 0, 30 * 86_400),
      keepRootsSeconds: integer(env, 'STORE_KEEP_ROOTS_S', 86_400, 0, 365 * 86_400),
    },
    media: mediaConfig(env),
    blossom: blossomConfig(env),
    uploads: {
      maxConcurrent: integer(env, 'UPLOAD_MAX_CONCURRENT', 3, 1, 1_000),
      maxPerMinute: integer(env, 'UPLOAD_MAX_PER_MINUTE', 60, 1, 100_000),
      perAddress: {
        maxConcurrent: integer(env, 'UPLOAD_IP_MAX_CONCURRENT', 6, 1, 1_000),
        maxPerMinute: integer(env, 'UPLOAD_IP_MAX_PER_MINUTE', 60, 1, 100_000),
      },
      maxTotal: integer(env, 'UPLOAD_MAX_TOTAL', 64, 1, 100_000),
    },
    overload: {
      maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY', 1000, 0, 600_000),
      maxRssBytes: integer(env, 'OVERLOAD_MAX_RSS_MB', 0, 0, 1_000_000) * 1024 * 1024,
    },
    diskMinFreeBytes: integer(env, 'DISK_MIN_FREE_MB', 256, 0, 100_000_000) * 1024 * 1024,
    memoryLimitBytes: integer(env, 'MEMORY_LIMIT_MB', 1024, 0, 1_000_000) * 1024 * 1024,
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'pretty', 'json'] as const, 'auto'),
  };
}
