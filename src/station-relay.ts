import { join } from 'node:path';
import type { Logger } from 'pino';
import { signerFromSecretKey } from '../streams/relay-client.js';
import { unixSeconds, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { StationKey } from './identity/station-key.js';
import { isLaterClusterInstance } from './process/cluster.js';
import { listenFailureAsStartupError } from './process/startup-errors.js';
import { isLoopbackUrl, relayAnswers } from './relay/probe.js';
import { startRelayThread, type RelayThread } from './relay/thread/relay-thread.js';
import { startSwarm, type Swarm } from './swarm/swarm.js';

/*
 * The relay side of start-up (station.ts): the embedded relay on its thread when nothing answers at
 * RELAY_URL, and the sync with sister stations over it.
 */

export const relayStorePath = (config: Config) => join(config.dataRoot, 'relay', 'store');

/** The embedded relay, started when the configuration asks for it and nothing answers at RELAY_URL. */
export async function ensureRelay(
  config: Config,
  logger: Logger,
  stationKey: StationKey,
): Promise<RelayThread | null> {
  if (config.embeddedRelay === 'off') return null;
  if (isLaterClusterInstance()) {
    logger.info({ url: config.relayUrl }, "embedded relay left to the cluster's first instance");
    return null;
  }
  if (config.embeddedRelay === 'auto') {
    // RELAY_URL unset: the derived address is the station's own, whatever HOST is (src/config/listen.ts).
    const own = config.listen.relayIsDerived || isLoopbackUrl(config.relayUrl);
    if (!own || (await relayAnswers(config.relayUrl))) return null;
  }
  const target = new URL(config.relayUrl);
  try {
    const relay = await startRelayThread(
      {
        host: config.listen.relay,
        port: Number(target.port || 80),
        storePath: relayStorePath(config),
        legacyJournal: join(config.dataRoot, 'relay', 'events.jsonl'),
        maxEvents: config.relay.maxEvents,
        limits: {
          maxFutureSeconds: config.relay.maxFutureSeconds,
          maxEventsPerMinute: config.relay.eventsPerMinute,
          ...config.relay.budgets,
          reqBurst: config.relay.budgets.reqsPerSecond * 4,
          // All reconciliations together hold at most four of the largest one (about 40 bytes a record).
          maxNegRecordsTotal: config.relay.budgets.maxNegRecords * 4,
        },
        privilegedPubkeys: [stationKey.hex],
        publicUrls: [config.relayUrl, ...config.relay.publicUrls],
        rateExempt: config.trustedIps,
        trustedProxies: config.trustedProxies,
        logLevel: logger.level,
        signatureThreads: config.relay.signatureThreads,
      },
      { logger, maxHeapMb: config.relay.maxHeapMb },
    );
    logger.info({ url: relay.url }, 'embedded relay started (nothing answered at RELAY_URL)');
    return relay;
  } catch (error) {
    // Another station process on this machine won the race for the port: use its relay like any other.
    const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    if (config.embeddedRelay === 'auto' && taken && (await relayAnswers(config.relayUrl))) return null;
    const names = { port: 'RELAY_URL', host: config.listen.relayIsDerived ? 'HOST' : 'RELAY_URL' };
    const address = { host: config.listen.relay, port: Number(target.port || 80) };
    const remedy =
      'stop that program, or set RELAY_URL to a free port (or to a running relay, with EMBEDDED_RELAY=off)';
    throw listenFailureAsStartupError(error, names, address, remedy) ?? error;
  }
}

/** The sync with sister stations (SWARM_RELAYS): it reads the embedded relay's store, so needs that relay. */
export function startSwarmOf(
  config: Config,
  relay: RelayThread | null,
  stationKey: StationKey,
  clock: Clock,
  logger: Logger,
): Swarm {
  const sisters = config.swarm.relays;
  if (sisters.length > 0 && !relay)
    logger.warn('SWARM_RELAYS ignored: the swarm syncs the embedded relay only');
  return startSwarm({
    sisters: relay ? sisters : [],
    intervalSeconds: config.swarm.intervalSeconds,
    localUrl: relay?.url ?? config.relayUrl,
    storePath: relayStorePath(config),
    sign: signerFromSecretKey(stationKey.secretKey),
    now: () => unixSeconds(clock),
    logger,
  });
}
