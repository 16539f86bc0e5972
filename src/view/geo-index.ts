import { LRUCache } from 'lru-cache';
import type { NostrEvent } from 'nostr-tools';
import type { LatLon } from '../geo/coordinates.js';
import { umapOf } from '../geo/grid.js';
import { cellsAround, indexKey } from './geo.js';
import type { GeoMessage } from './schemas.js';

export interface GeoIndexLimits {
  /** Messages kept in all (the oldest-used go first). */
  maxMessages: number;
  /** Approximate bytes of message text kept in all. */
  maxBytes: number;
  /** Newest messages kept per UMAP cell. */
  perCell: number;
}

const DEFAULT_LIMITS: GeoIndexLimits = { maxMessages: 20_000, maxBytes: 16 * 1024 * 1024, perCell: 200 };
const MAX_CONTENT = 8_000;

/**
 * Geo-tagged notes filed by UMAP cell (0.01°). Memory is bounded three ways: in total messages, in total
 * text, and per cell; whatever leaves the LRU leaves its cell too.
 */
export class GeoIndex {
  private readonly cells = new Map<string, GeoMessage[]>();
  private readonly messages: LRUCache<string, GeoMessage>;
  private readonly limits: GeoIndexLimits;

  constructor(limits: Partial<GeoIndexLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.messages = new LRUCache<string, GeoMessage>({
      max: this.limits.maxMessages,
      maxSize: this.limits.maxBytes,
      sizeCalculation: (message) => 256 + message.content.length * 2,
      dispose: (message) => this.removeFromCell(message),
    });
  }

  get size(): number {
    return this.messages.size;
  }

  get cellCount(): number {
    return this.cells.size;
  }

  /** Files a note at `position`; false when it was already there. */
  add(event: NostrEvent, position: LatLon): boolean {
    if (this.messages.has(event.id)) return false;
    const message: GeoMessage = {
      id: event.id,
      pubkey: event.pubkey,
      created_at: event.created_at,
      content: event.content.slice(0, MAX_CONTENT),
      lat: position.lat,
      lon: position.lon,
      umap: umapOf(position),
    };
    const key = indexKey(message.umap);
    const cell = this.cells.get(key) ?? [];
    // Newest first; a backfill delivers out of order, so insert in place.
    const at = cell.findIndex((other) => other.created_at < message.created_at);
    cell.splice(at === -1 ? cell.length : at, 0, message);
    this.cells.set(key, cell);
    this.messages.set(message.id, message);
    while (cell.length > this.limits.perCell) this.messages.delete(cell[cell.length - 1]!.id);
    return true;
  }

  /** Newest messages of the cells of a window of side `deg` around `center`. */
  near(center: LatLon, deg: number, limit: number): GeoMessage[] {
    const found: GeoMessage[] = [];
    for (const key of cellsAround(center, deg)) found.push(...(this.cells.get(key) ?? []));
    return found.sort((a, b) => b.created_at - a.created_at || a.id.localeCompare(b.id)).slice(0, limit);
  }

  private removeFromCell(message: GeoMessage): void {
    const key = indexKey(message.umap);
    const cell = this.cells.get(key);
    if (!cell) return;
    const index = cell.findIndex((other) => other.id === message.id);
    if (index !== -1) cell.splice(index, 1);
    if (cell.length === 0) this.cells.delete(key);
  }
}
