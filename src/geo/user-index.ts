import type { UserRecord } from '../identity/user-files.js';
import { cellKey, insideWindow, type GridWindow } from './grid.js';

/** Beyond this many 1° regions a window is answered by walking every located user instead. */
const MAX_REGIONS = 4096;

/**
 * Located users bucketed by 1° region, rebuilt only when the user store changes, so a window query visits
 * the few regions it overlaps rather than every user.
 */
export class UserGridIndex {
  private version = -1;
  private regions = new Map<string, UserRecord[]>();
  private located: UserRecord[] = [];

  constructor(private readonly users: { version: number; list(): UserRecord[] }) {}

  within(window: GridWindow): UserRecord[] {
    this.refresh();
    const half = window.deg / 2;
    const latFrom = Math.floor(window.center.lat - half);
    const latTo = Math.floor(window.center.lat + half);
    const lonFrom = Math.floor(window.center.lon - half);
    const lonTo = Math.floor(window.center.lon + half);
    const regionCount = (latTo - latFrom + 1) * (lonTo - lonFrom + 1);
    if (regionCount > MAX_REGIONS) return this.located.filter((u) => insideWindow(u.gps!, window));
    const found: UserRecord[] = [];
    for (let lat = latFrom; lat <= latTo; lat++) {
      for (let lon = lonFrom; lon <= lonTo; lon++) {
        const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
        for (const user of this.regions.get(cellKey({ lat, lon: wrapped })) ?? []) {
          if (insideWindow(user.gps!, window)) found.push(user);
        }
      }
    }
    return found;
  }

  all(): UserRecord[] {
    this.refresh();
    return this.located;
  }

  private refresh(): void {
    if (this.version === this.users.version) return;
    this.version = this.users.version;
    this.regions = new Map();
    this.located = this.users.list().filter((user) => user.gps !== null);
    for (const user of this.located) {
      const key = cellKey({ lat: Math.floor(user.gps!.lat), lon: Math.floor(user.gps!.lon) });
      const bucket = this.regions.get(key);
      if (bucket) bucket.push(user);
      else this.regions.set(key, [user]);
    }
  }
}
