import { toGrid, type LatLon } from './coordinates.js';

/** UMAP = 0.01° cell, SECTOR = 0.1°, REGION = 1° (docs/api-contract.md §11). */
export interface Cell {
  lat: number;
  lon: number;
}

export interface GridWindow {
  center: LatLon;
  /** Side of the square window, in degrees. */
  deg: number;
}

const EARTH_RADIUS_KM = 6371;

export function umapOf(point: LatLon): Cell {
  return { lat: toGrid(point.lat), lon: toGrid(point.lon) };
}

/** SECTOR of a UMAP: the 2-decimal text with its last digit dropped ("43.61" → "43.6"). */
export function sectorOf(cell: Cell): Cell {
  const drop = (value: number) => Number(value.toFixed(2).slice(0, -1));
  return { lat: drop(cell.lat), lon: drop(cell.lon) };
}

/** REGION of a UMAP: the integer part of each coordinate. */
export function regionOf(cell: Cell): Cell {
  return { lat: Math.trunc(cell.lat), lon: Math.trunc(cell.lon) };
}

/** The SECTOR name of a UMAP in the system JSON ("43.6_1.4"); the pages show the same names. */
export function sectorName(cell: Cell): string {
  const sector = sectorOf(cell);
  return `${sector.lat.toFixed(1)}_${sector.lon.toFixed(1)}`;
}

/** The REGION name of a UMAP in the system JSON ("43_1"). */
export function regionName(cell: Cell): string {
  const region = regionOf(cell);
  return `${region.lat}_${region.lon}`;
}

export function cellKey(cell: Cell): string {
  return `${cell.lat.toFixed(2)}_${cell.lon.toFixed(2)}`;
}

export function insideWindow(point: LatLon, window: GridWindow): boolean {
  const half = window.deg / 2;
  const dLon = Math.abs(((point.lon - window.center.lon + 540) % 360) - 180);
  return Math.abs(point.lat - window.center.lat) <= half + 1e-9 && dLon <= half + 1e-9;
}

/** Great-circle distance (haversine), kilometres with two decimals. */
export function distanceKm(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h))) * 100) / 100;
}
