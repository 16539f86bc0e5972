import { availableParallelism } from 'node:os';
import { checkUrl, integer, list, type Env } from './parse.js';

/** The relay layer: the station relay, optional extra relays, and the embedded relay's limits. */
export interface RelayConfig {
  /** Extra relays the bot also listens to (RELAY_URLS), the station relay excluded. */
  extraUrls: string[];
  /** URLs clients reach the embedded relay by through a proxy (wss://…), accepted in NIP-42 `relay` tags. */
  publicUrls: string[];
  /** Retention cap of the embedded relay: above it the oldest events go, a small batch at a time. */
  maxEvents: number;
  /** Events dated further ahead are refused by the embedded relay and dropped by the bot. */
  maxFutureSeconds: number;
  /** Events the embedded relay accepts per client address and minute (TRUSTED_IPS exempt). */
  eventsPerMinute: number;
  /** V8 heap limit of the embedded relay's thread: past it the thread alone is restarted. */
  maxHeapMb: number;
  /** Threads checking published events' signatures, beside the relay thread (the relay's limit on 2 cores). */
  signatureThreads: number;
  /** Strangers' budgets of the embedded relay (src/relay/limits.ts; TRUSTED_IPS and the station exempt). */
  budgets: {
    maxEventBytesPerMinute: number;
    maxConnectionsPerAddress: number;
    maxConnections: number;
    reqsPerSecond: number;
    maxFilterValues: number;
    slowConsumerBytes: number;
    maxQueuedBytes: number;
    /** NIP-77: records one NEG-OPEN may cover, and open reconciliations per connection. */
    maxNegRecords: number;
    maxNegOpen: number;
  };
}

export function relayConfig(env: Env, stationRelay: string): RelayConfig {
  const urls = (name: string) => list(env, name, []).map((item) => checkUrl(name, item, ['ws:', 'wss:']));
  return {
    extraUrls: [...new Set(urls('RELAY_URLS'))].filter((url) => url !== stationRelay),
    publicUrls: urls('RELAY_PUBLIC_URLS'),
    maxEvents: integer(env, 'RELAY_MAX_EVENTS', 200_000, 1_000, 100_000_000),
    maxFutureSeconds: integer(env, 'RELAY_MAX_FUTURE', 900, 0, 86_400),
    eventsPerMinute: integer(env, 'RELAY_EVENTS_PER_MINUTE', 300, 1, 1_000_000),
    maxHeapMb: integer(env, 'RELAY_MAX_HEAP_MB', 256, 64, 16_384),
    signatureThreads: integer(env, 'RELAY_SIGNATURE_THREADS', defaultSignatureThreads(), 1, 64),
    budgets: {
      maxEventBytesPerMinute: integer(env, 'RELAY_EVENT_KIB_PER_MINUTE', 8_192, 64, 10_485_760) * 1024,
      maxConnectionsPerAddress: integer(env, 'RELAY_CONNECTIONS_PER_IP', 20, 1, 100_000),
      maxConnections: integer(env, 'RELAY_MAX_CONNECTIONS', 4_000, 1, 1_000_000),
      reqsPerSecond: integer(env, 'RELAY_REQS_PER_SECOND', 10, 1, 100_000),
      maxFilterValues: integer(env, 'RELAY_MAX_FILTER_VALUES', 5_000, 10, 10_000_000),
      slowConsumerBytes: integer(env, 'RELAY_QUEUE_KIB_PER_CONNECTION', 4_096, 64, 10_485_760) * 1024,
      maxQueuedBytes: integer(env, 'RELAY_QUEUE_MIB_TOTAL', 64, 1, 65_536) * 1024 * 1024,
      maxNegRecords: integer(env, 'RELAY_NEG_MAX_RECORDS', 500_000, 1_000, 100_000_000),
      maxNegOpen: integer(env, 'RELAY_NEG_PER_CONNECTION', 4, 1, 1_000),
    },
  };
}

/**
 * Signature checks are what limits the relay's publishing: on 2 cores one checker thread was busy all the time
 * while the relay thread idled, 1,300–2,050 events/s; two gave 2,090–2,580 with `/health` p99 still under
 * 20 ms (docs/decisions.md, "The relay on a thread of its own"). Two at least, then one per core beyond the
 * API's and the relay's, at most 4.
 */
function defaultSignatureThreads(): number {
  return Math.min(4, Math.max(2, availableParallelism() - 2));
}
