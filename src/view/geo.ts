import ngeohash from 'ngeohash';
import type { NostrEvent } from 'nostr-tools';
import type { LatLon } from '../geo/coordinates.js';
import { cellKey, umapOf } from '../geo/grid.js';

/**
 * A geohash shorter than this is coarser than ±0.003°, i.e. wider than the 0.01° UMAP cell it would be filed
 * under; such a note is not placed on the grid.
 */
export const MIN_GEOHASH_LENGTH = 6;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const GEOHASH = /^[0-9b-hjkmnp-z]+$/;

function coordinate(text: string | undefined, limit: number): number | null {
  const value = text?.trim();
  if (!value || !DECIMAL.test(value)) return null;
  const n = Number(value);
  return Math.abs(n) <= limit ? n : null;
}

/**
 * Where a kind-1 note says it is: `latitude` / `longitude` tags (UPlanet's form, exact) first, else the most
 * precise `g` geohash tag (NIP-52 style) decoded to its centre. Null when the note is not geo-tagged.
 */
export function notePosition(event: NostrEvent): LatLon | null {
  const tag = (name: string) => event.tags.find((t) => t[0] === name)?.[1];
  const lat = coordinate(tag('latitude') ?? tag('lat'), 90);
  const lon = coordinate(tag('longitude') ?? tag('lon'), 180);
  if (lat !== null && lon !== null) return { lat, lon };
  const geohash = event.tags
    .filter((t) => t[0] === 'g' && typeof t[1] === 'string')
    .map((t) => t[1]!.trim().toLowerCase())
    .filter((value) => value.length >= MIN_GEOHASH_LENGTH && value.length <= 12 && GEOHASH.test(value))
    .sort((a, b) => b.length - a.length)[0];
  if (!geohash) return null;
  const { latitude, longitude } = ngeohash.decode(geohash);
  return { lat: latitude, lon: longitude };
}

/**
 * True when a note carries explicit coordinate tags, so that failing to read them means a malformed note
 * (a coarse `g` geohash alone is a deliberate vagueness, not an error).
 */
export function hasCoordinateTags(event: NostrEvent): boolean {
  return event.tags.some((t) => ['latitude', 'longitude', 'lat', 'lon'].includes(t[0] ?? ''));
}

/**
 * The keys (`cellKey` of `src/geo/grid.ts`) of the UMAP cells of a square window of side `deg` degrees centred
 * on `center` (always at least its cell).
 */
export function cellsAround(center: LatLon, deg: number): string[] {
  const half = Math.floor(Math.round(deg * 100) / 2);
  const umap = umapOf(center);
  // Whole hundredths, so stepping from cell to cell never accumulates floating-point error.
  const lat0 = Math.round(umap.lat * 100);
  const lon0 = Math.round(umap.lon * 100);
  const keys: string[] = [];
  for (let lat = Math.max(-9_000, lat0 - half); lat <= Math.min(9_000, lat0 + half); lat++) {
    for (let lon = Math.max(-18_000, lon0 - half); lon <= Math.min(18_000, lon0 + half); lon++) {
      keys.push(cellKey({ lat: lat / 100, lon: lon / 100 }));
    }
  }
  return keys;
}
