export interface LatLon {
  lat: number;
  lon: number;
}

/** Rounds to the UMAP grid (0.01°) and avoids "-0.00". */
export function toGrid(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** Parses a latitude or longitude given as text or number; null when absent, NaN-like or out of range. */
export function parseCoordinate(input: unknown, limit: 90 | 180): number | null {
  if (input === undefined || input === null || input === '') return null;
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const value = Number(text);
  return Math.abs(value) <= limit ? toGrid(value) : null;
}

export function formatGps({ lat, lon }: LatLon): string {
  return `LAT=${lat.toFixed(2)}; LON=${lon.toFixed(2)};`;
}

export function parseGps(text: string): LatLon | null {
  const lat = /LAT=([^;]*);/.exec(text)?.[1];
  const lon = /LON=([^;]*);/.exec(text)?.[1];
  const parsedLat = parseCoordinate(lat, 90);
  const parsedLon = parseCoordinate(lon, 180);
  return parsedLat === null || parsedLon === null ? null : { lat: parsedLat, lon: parsedLon };
}
