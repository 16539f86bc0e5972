import type { PositionLabels } from '../../labels/types.js';
import { byId } from './dom.js';
import {
  browserPosition,
  positionFromAddress,
  PositionError,
  readTyped,
  umapCell,
  type LatLon,
} from './position.js';

export interface PositionBlock {
  /** The position on the UMAP grid, or null when none (or an invalid one) is given. */
  current(): LatLon | null;
  /** True when the fields hold something that is not a valid position. */
  invalid(): boolean;
}

/**
 * Wires the position fieldset (`partials/position.eta`): typed coordinates or the browser's position, the
 * resulting UMAP / SECTOR / REGION shown as text, `onChange` called with each new valid position (or null).
 */
export function wirePosition(t: PositionLabels, onChange: (point: LatLon | null) => void): PositionBlock {
  const lat = byId<HTMLInputElement>('lat');
  const lon = byId<HTMLInputElement>('lon');
  const locate = byId<HTMLButtonElement>('locate');
  const out = byId('umap');
  let point: LatLon | null = null;

  const empty = () => lat.value.trim() === '' && lon.value.trim() === '';

  function show(): void {
    point = readTyped(lat.value, lon.value);
    if (point) {
      const cell = umapCell(point);
      out.textContent = `${t.umap} ${cell.lat}, ${cell.lon} · ${t.sector} ${cell.sector} · ${t.region} ${cell.region}`;
      Object.assign(out.dataset, { lat: cell.lat, lon: cell.lon, sector: cell.sector, region: cell.region });
    } else {
      out.textContent = empty() ? t.noPosition : t.badPosition;
      for (const key of ['lat', 'lon', 'sector', 'region']) delete out.dataset[key];
    }
    out.classList.toggle('error', !point && !empty());
    onChange(point);
  }

  function fill(next: LatLon): void {
    lat.value = next.lat.toFixed(2);
    lon.value = next.lon.toFixed(2);
    show();
  }

  lat.addEventListener('input', show);
  lon.addEventListener('input', show);
  locate.addEventListener('click', () => {
    locate.disabled = true;
    out.textContent = t.locating;
    browserPosition()
      .then(fill, (error: unknown) => {
        out.textContent = error instanceof PositionError ? t.problems[error.problem] : t.problems.unavailable;
        out.classList.add('error');
      })
      .finally(() => (locate.disabled = false));
  });

  const given = positionFromAddress();
  if (given) fill(given);

  return { current: () => point, invalid: () => !point && !empty() };
}
