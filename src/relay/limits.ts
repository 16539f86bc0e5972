import type { RelayLimitation } from '../nostr/nip11.js';

/** What the embedded relay enforces; everything public here is advertised in its NIP-11 document. */
export interface RelayLimits {
  maxMessageLength: number;
  maxSubscriptions: number;
  maxFilters: number;
  defaultLimit: number;
  maxLimit: number;
  maxSubidLength: number;
  maxEventTags: number;
  maxContentLength: number;
  /** Events dated further ahead than this are refused (clock drift, not a date in 2100). */
  maxFutureSeconds: number;
  maxEventsPerMinute: number;
  /** Bytes of events accepted per address (an IPv6 /64) and minute, beside their count. */
  maxEventBytesPerMinute: number;
  /** Open connections per address (an IPv6 /64), and in all. */
  maxConnectionsPerAddress: number;
  maxConnections: number;
  /** REQs per address and second (a bucket of `reqBurst`), beyond which a REQ is CLOSED "rate-limited". */
  reqsPerSecond: number;
  reqBurst: number;
  /** Values (ids, authors, kinds, tag values; one per filter at least) of one connection's open subscriptions. */
  maxFilterValues: number;
  /**
   * Bytes queued for one connection before it counts as a slow consumer and is dropped: the relay never
   * buffers without bound for a client that does not read.
   */
  slowConsumerBytes: number;
  /** Bytes queued for all connections together, past which strangers holding more than 256 KiB are dropped. */
  maxQueuedBytes: number;
  /** A stranger that takes nothing of what is queued for it for this long is dropped. */
  stalledSendMs: number;
  /**
   * Answer size for the station's own authenticated connection, whose back-fill after a restart (a day of
   * events) must not be cut at the public `maxLimit`.
   */
  privilegedMaxLimit: number;
  /** NIP-77: records (index entries) one NEG-OPEN may cover; beyond them it is `NEG-ERR "blocked: …"`. */
  maxNegRecords: number;
  /** NIP-77: records held by all open reconciliations of the relay together (about 40 bytes each). */
  maxNegRecordsTotal: number;
  /** NIP-77: open reconciliations per connection. */
  maxNegOpen: number;
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  maxMessageLength: 256 * 1024,
  maxSubscriptions: 20,
  maxFilters: 10,
  defaultLimit: 500,
  maxLimit: 5_000,
  maxSubidLength: 64,
  maxEventTags: 2_000,
  maxContentLength: 128 * 1024,
  maxFutureSeconds: 900,
  maxEventsPerMinute: 300,
  maxEventBytesPerMinute: 8 * 1024 * 1024,
  maxConnectionsPerAddress: 20,
  maxConnections: 4_000,
  reqsPerSecond: 10,
  reqBurst: 40,
  maxFilterValues: 5_000,
  slowConsumerBytes: 4 * 1024 * 1024,
  maxQueuedBytes: 64 * 1024 * 1024,
  stalledSendMs: 30_000,
  privilegedMaxLimit: 50_000,
  maxNegRecords: 500_000,
  maxNegRecordsTotal: 2_000_000,
  maxNegOpen: 4,
};

export function advertisedLimitation(limits: RelayLimits): RelayLimitation {
  return {
    max_message_length: limits.maxMessageLength,
    max_subscriptions: limits.maxSubscriptions,
    max_filters: limits.maxFilters,
    max_limit: limits.maxLimit,
    default_limit: limits.defaultLimit,
    max_subid_length: limits.maxSubidLength,
    max_event_tags: limits.maxEventTags,
    max_content_length: limits.maxContentLength,
    created_at_upper_limit: limits.maxFutureSeconds,
    auth_required: false,
    payment_required: false,
    restricted_writes: false,
    max_events_per_minute: limits.maxEventsPerMinute,
  };
}
