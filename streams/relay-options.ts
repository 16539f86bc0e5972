import type { Filter } from 'nostr-tools';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../src/clock.js';
import type { BackoffSettings } from './relay-backoff.js';
import type { RelaySettings, RelayStats, Signer } from './relay-session.js';

export interface RelayClientOptions {
  /** The station relay first, then optional extra relays the subscription also reads from. */
  urls?: string[];
  /** Shorthand for `urls: [url]`. */
  url?: string;
  /**
   * Filters of the long-lived subscription, asked again at every (re)subscription of every relay: `since` is
   * null on a relay's first subscription, then min(newest `created_at` from that relay, now) − overlapSeconds.
   */
  filters: (since: number | null) => Filter[];
  /** Signs the NIP-42 answers to the relays' AUTH challenges (the station key: `signerFromSecretKey`). */
  signer?: Signer;
  clock?: Clock;
  logger?: Logger;
  /** Default 60. */
  overlapSeconds?: number;
  /** Events dated later than now + this are dropped before anything counts them. Default 900. */
  maxFutureSeconds?: number;
  /** Reconnection and resubscription delays. Default 500 ms doubling up to 30 s, with jitter. */
  backoff?: BackoffSettings;
  /**
   * WebSocket pings. Default every 20 s; a pong missing 10 s after its ping ends the connection (reconnected
   * with back-off).
   */
  ping?: { frequencyMs: number; timeoutMs: number };
  /** How long a close handshake may take before the socket is destroyed. Default 2 s. */
  closeTimeoutMs?: number;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * A subscription that lasted this long, or a connection that lasted this long and answered a ping since,
   * resets its back-off. Default 15 s.
   */
  healthyAfterMs?: number;
  /** Event ids remembered to drop duplicates. Default 20,000. */
  seenCapacity?: number;
}

/** The options with their defaults, as every connection of the client reads them. */
export function connectionSettings(options: RelayClientOptions, stats: RelayStats): RelaySettings {
  return {
    filters: options.filters,
    clock: options.clock ?? systemClock,
    overlapSeconds: options.overlapSeconds ?? 60,
    maxFutureSeconds: options.maxFutureSeconds ?? 900,
    backoff: options.backoff ?? { initialMs: 500, maxMs: 30_000 },
    pingFrequencyMs: options.ping?.frequencyMs ?? 20_000,
    pingTimeoutMs: options.ping?.timeoutMs ?? 10_000,
    closeTimeoutMs: options.closeTimeoutMs ?? 2_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    healthyAfterMs: options.healthyAfterMs ?? 15_000,
    signer: options.signer,
    logger: options.logger,
    stats,
  };
}
