/** The limits a relay enforces, as NIP-11 names them (plus the event rate, which NIP-11 has no field for). */
export interface RelayLimitation {
  max_message_length: number;
  max_subscriptions: number;
  max_filters: number;
  max_limit: number;
  default_limit: number;
  max_subid_length: number;
  max_event_tags: number;
  max_content_length: number;
  created_at_upper_limit: number;
  auth_required: boolean;
  payment_required: boolean;
  restricted_writes: boolean;
  /** Not a NIP-11 field: events accepted per client address and minute. */
  max_events_per_minute: number;
}

/** NIP-11 relay information document. */
export interface RelayInformation {
  name: string;
  description: string;
  pubkey?: string;
  software: string;
  version: string;
  supported_nips: number[];
  limitation: RelayLimitation;
}

export const NIP11_MEDIA_TYPE = 'application/nostr+json';

/** NIP-11: the document is served on the relay's HTTP URL to requests that accept its media type. */
export function wantsRelayInformation(accept: string | undefined): boolean {
  return (accept ?? '').includes(NIP11_MEDIA_TYPE);
}

/** NIP-11 asks relays to answer browsers from any origin. */
export const NIP11_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
} as const;
