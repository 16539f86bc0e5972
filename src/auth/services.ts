import type { Logger } from 'pino';
import { unixSeconds, type Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { openStationDb, type StationDb } from '../state/station-db.js';
import { AuthCache } from './auth-cache.js';
import { Authenticator } from './authenticator.js';
import { ChallengeStore } from './challenges.js';
import { StationOrigins } from './origins.js';
import { RelayObservedAuth } from './relay-observed.js';
import { ReplayRecords } from './replay.js';

export interface AuthServices {
  authenticator: Authenticator;
  challenges: ChallengeStore;
  observed: RelayObservedAuth;
  cache: AuthCache;
  origins: StationOrigins;
  /** Single-use records of NIP-98 events and Blossom tokens. */
  replay: ReplayRecords;
  /** The station database these services run on (the blob index shares it). */
  db: StationDb;
  /** Starts the periodic removal of expired challenges, replay records and logins. */
  start(): void;
  stop(): void;
  /** Stops, and closes the station database when these services opened it. */
  close(): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Wires the auth modules on the station database (shared by every worker of a cluster): challenges, replay
 * records and relay-observed logins. Opens the database under DATA_ROOT when none is given (tests, CLI).
 */
export async function createAuthServices(options: {
  config: Pick<Config, 'dataRoot' | 'authMaxAgeSeconds' | 'authRequireProof' | 'auth'> &
    Partial<Pick<Config, 'ipfsGateway'>>;
  clock: Clock;
  stationDb?: StationDb;
  logger?: Logger;
}): Promise<AuthServices> {
  const { config, clock, logger } = options;
  const db = options.stationDb ?? (await openStationDb(config.dataRoot));
  const replay = new ReplayRecords(db.replay, clock);
  const challenges = new ChallengeStore(db, clock);
  const cache = new AuthCache(db.claims, logger, 100_000, db.claimsByAddress);
  // Pages served by the gateway (UPlanet's apps under /ipns/…) and the operator's CORS_ORIGINS are the
  // station's own for browsers; uploads on the gateway must be sandboxed
  // (docs/security.md, "Operator checklist").
  const browserOrigins = [...(config.ipfsGateway ? [config.ipfsGateway] : []), ...config.auth.corsOrigins];
  const origins = new StationOrigins(config.auth.publicUrls, browserOrigins);
  const observed = new RelayObservedAuth({
    cache,
    challenges,
    clock,
    maxAgeSeconds: config.authMaxAgeSeconds,
    legacy: config.auth.legacyRelayLogin,
  });
  const authenticator = new Authenticator({
    clock,
    requireProof: config.authRequireProof,
    replay,
    challenges,
    observed,
    origins: origins.describe(),
    ownOrigin: (origin, requestUrl) => origins.allowsOrigin(origin, requestUrl),
  });
  let sweeping: NodeJS.Timeout | null = null;
  const sweep = () =>
    Promise.all([
      replay.sweep(),
      challenges.sweep(),
      cache.prune(unixSeconds(clock) - config.authMaxAgeSeconds),
    ]).catch((error: unknown) => logger?.warn({ err: error }, 'sweeping auth records failed'));
  const stop = () => {
    if (sweeping) clearInterval(sweeping);
    sweeping = null;
  };
  return {
    authenticator,
    challenges,
    observed,
    cache,
    origins,
    replay,
    db,
    start: () => {
      sweeping ??= setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
      void sweep();
    },
    stop,
    close: async () => {
      stop();
      if (!options.stationDb) await db.close();
    },
  };
}
