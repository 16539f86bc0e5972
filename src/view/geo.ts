import ngeohash from 'ngeohash';
import type { NostrEvent } from 'nostr-tools';
import { toGrid, type LatLon } from '../geo/coordinates.js';

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
 * Integer index of the 0.01° UMAP row/column holding a coordinate (docs/api-contract.md §11), by the shared
 * `toGrid`.
 */
function cellIndex(value: number): number {
  return Math.round(toGrid(value) * 100);
}

/**
 * The geo index's key of the UMAP cell holding a position: its row and column indexes ("4361:144"). Not
 * `cellKey` of `src/geo/grid.ts` ("43.61_1.44"): a 1° window walks 10,201 cells, and formatting each with
 * two `toFixed` made that walk about ten times slower (0.2 → 2.3 ms a request, measured).
 */
export function indexKey(position: LatLon): string {
  return `${cellIndex(position.lat)}:${cellIndex(position.lon)}`;
}

/** The `indexKey`s of the UMAP cells of a square window of side `deg` degrees centred on `center` (≥ its cell). */
export function cellsAround(center: LatLon, deg: number): string[] {
  const half = Math.floor(Math.round(deg * 100) / 2);
  const lat0 = cellIndex(center.lat);
  const lon0 = cellIndex(center.lon);
  const keys: string[] = [];
  for (let lat = Math.max(-9_000, lat0 - half); lat <= Math.min(9_000, lat0 + half); lat++) {
    for (let lon = Math.max(-18_000, lon0 - half); lon <= Math.min(18_000, lon0 + half); lon++) {
      keys.push(`${lat}:${lon}`);
    }
  }
  return keys;
}
