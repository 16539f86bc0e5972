import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { AuthCache } from './auth-cache.js';
import { Authenticator } from './authenticator.js';
import { ChallengeStore } from './challenges.js';
import { FileClaims } from './claims.js';
import { RelayObservedAuth } from './relay-observed.js';
import { unixSeconds } from '../clock.js';
import type { StationDb } from '../state/station-db.js';

export interface AuthServices {
  authenticator: Authenticator;
  challenges: ChallengeStore;
  observed: RelayObservedAuth;
  cache: AuthCache;
  /** Starts the periodic removal of expired challenges and replay records. */
  start(): void;
  stop(): void;
}

/** Wires the auth modules; replay records and challenges live under TMP_DIR so every worker shares them. */
export async function createAuthServices(options: {
  config: Pick<Config, 'tmpDir' | 'authMaxAgeSeconds' | 'authRequireProof'>;
  clock: Clock;
  /** Where relay-observed logins are kept across restarts; memory only when absent (tests). */
  stationDb?: StationDb;
  logger?: Logger;
}): Promise<AuthServices> {
  const { config, clock } = options;
  const replay = await new FileClaims(join(config.tmpDir, 'auth', 'nip98'), clock).init();
  const challengeClaims = await new FileClaims(join(config.tmpDir, 'auth', 'challenges'), clock).init();
  const challenges = new ChallengeStore(challengeClaims, clock);
  const cache = new AuthCache(100_000, options.stationDb?.claims, options.logger);
  let pruning: NodeJS.Timeout | null = null;
  const prune = () =>
    void cache.prune(unixSeconds(clock) - config.authMaxAgeSeconds).catch((error: unknown) => {
      options.logger?.warn({ err: error }, 'pruning relay-observed logins failed');
    });
  const observed = new RelayObservedAuth({
    cache,
    challenges,
    clock,
    maxAgeSeconds: config.authMaxAgeSeconds,
  });
  const authenticator = new Authenticator({
    clock,
    requireProof: config.authRequireProof,
    replay,
    challenges,
    observed,
  });
  return {
    authenticator,
    challenges,
    observed,
    cache,
    start: () => {
      replay.startSweeping();
      challengeClaims.startSweeping();
      pruning ??= setInterval(prune, 3_600_000).unref();
      prune();
    },
    stop: () => {
      replay.stopSweeping();
      challengeClaims.stopSweeping();
      if (pruning) clearInterval(pruning);
      pruning = null;
    },
  };
}
