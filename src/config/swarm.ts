import { checkUrl, integer, list, type Env } from './parse.js';

/** Sister stations whose relays the station syncs its own with (src/swarm/). */
export interface SwarmConfig {
  /** Sisters' relay URLs (SWARM_RELAYS), the station's own excluded. */
  relays: string[];
  /** Seconds between two reconciliations with each sister (SWARM_SYNC_INTERVAL_S). */
  intervalSeconds: number;
}

export function swarmConfig(env: Env, stationRelay: string): SwarmConfig {
  const urls = list(env, 'SWARM_RELAYS', []).map((item) => checkUrl('SWARM_RELAYS', item, ['ws:', 'wss:']));
  return {
    relays: [...new Set(urls)].filter((url) => url !== stationRelay),
    intervalSeconds: integer(env, 'SWARM_SYNC_INTERVAL_S', 300, 1, 86_400),
  };
}
