import ngeohash from 'ngeohash';
import type { EventTemplate } from 'nostr-tools/pure';
import { MIN_GEOHASH_LENGTH } from '../../../src/view/geo.js';
import type { GeoMessage } from '../../../src/view/schemas.js';
import { fetchJson } from './http.js';
import type { LatLon } from './position.js';

export const MAX_MESSAGE_LENGTH = 2000;

/**
 * A kind-1 note placed on the grid: `latitude` and `longitude` tags (two decimals), and a `g` geohash as
 * coarse as the station still files under a UMAP cell (src/view/geo.ts reads the coordinate tags first).
 */
export function geoNote(content: string, at: LatLon, now = Date.now()): EventTemplate {
  const lat = at.lat.toFixed(2);
  const lon = at.lon.toFixed(2);
  return {
    kind: 1,
    created_at: Math.floor(now / 1000),
    content,
    tags: [
      ['g', ngeohash.encode(Number(lat), Number(lon), MIN_GEOHASH_LENGTH)],
      ['latitude', lat],
      ['longitude', lon],
    ],
  };
}

/** Side of the window read around the position: its UMAP cell and the eight around it. */
export const SURROUNDING_DEG = 0.03;

/** Geo-messages of the cells around `at`, newest first, from the station's view of the relay. */
export async function nearbyMessages(at: LatLon, limit = 50): Promise<GeoMessage[]> {
  const query = new URLSearchParams({
    lat: at.lat.toFixed(2),
    lon: at.lon.toFixed(2),
    deg: String(SURROUNDING_DEG),
    limit: String(limit),
  });
  const answer = await fetchJson<{ messages: GeoMessage[] }>(`/api/geo/messages?${query.toString()}`);
  return answer.messages;
}
