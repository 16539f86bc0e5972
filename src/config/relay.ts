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
}

export function relayConfig(env: Env, stationRelay: string): RelayConfig {
  const urls = (name: string) => list(env, name, []).map((item) => checkUrl(name, item, ['ws:', 'wss:']));
  return {
    extraUrls: [...new Set(urls('RELAY_URLS'))].filter((url) => url !== stationRelay),
    publicUrls: urls('RELAY_PUBLIC_URLS'),
    maxEvents: integer(env, 'RELAY_MAX_EVENTS', 200_000, 1_000, 100_000_000),
    maxFutureSeconds: integer(env, 'RELAY_MAX_FUTURE', 900, 0, 86_400),
    eventsPerMinute: integer(env, 'RELAY_EVENTS_PER_MINUTE', 300, 1, 1_000_000),
  };
}
