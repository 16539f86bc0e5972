import { parseCoordinate, type LatLon } from '../../../src/geo/coordinates.js';
import { regionName, sectorName, umapOf } from '../../../src/geo/grid.js';

export type { LatLon };

/** A UMAP cell as the system JSON names it (docs/api-contract.md §11): 0.01° cell, 0.1° SECTOR, 1° REGION. */
export interface UmapCell {
  lat: string;
  lon: string;
  sector: string;
  region: string;
}

export type PositionProblem = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

export class PositionError extends Error {
  constructor(readonly problem: PositionProblem) {
    super(problem);
  }
}

/** Typed coordinates on the UMAP grid (two decimals), or null when either is missing or out of range. */
export function readTyped(latText: string, lonText: string): LatLon | null {
  const lat = parseCoordinate(latText.replace(',', '.'), 90);
  const lon = parseCoordinate(lonText.replace(',', '.'), 180);
  return lat === null || lon === null ? null : { lat, lon };
}

export function umapCell(point: LatLon): UmapCell {
  const umap = umapOf(point);
  return {
    lat: umap.lat.toFixed(2),
    lon: umap.lon.toFixed(2),
    sector: sectorName(umap),
    region: regionName(umap),
  };
}

/** The browser's position, rounded to the UMAP grid: the station never needs more than ±500 m. */
export function browserPosition(timeoutMs = 15_000): Promise<LatLon> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) return reject(new PositionError('unsupported'));
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const typed = readTyped(position.coords.latitude.toFixed(6), position.coords.longitude.toFixed(6));
        if (typed) resolve(typed);
        else reject(new PositionError('unavailable'));
      },
      (error) => {
        const problem: PositionProblem =
          error.code === error.PERMISSION_DENIED
            ? 'denied'
            : error.code === error.TIMEOUT
              ? 'timeout'
              : 'unavailable';
        reject(new PositionError(problem));
      },
      { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: 600_000 },
    );
  });
}

/** Coordinates given in the page's address (`?lat=…&lon=…`), for links from the station map. */
export function positionFromAddress(): LatLon | null {
  const params = new URLSearchParams(window.location.search);
  return readTyped(params.get('lat') ?? '', params.get('lon') ?? '');
}
