import { LRUCache } from 'lru-cache';
import type { NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import type { ObservedClaim, StationDb } from '../state/station-db.js';

/** The newest verified kind-22242 event seen per key. */
export type ObservedAuth = ObservedClaim;

/**
 * Fed by the kind-22242 stream (events already verified), read by the HTTP surface. The memory part is
 * bounded so a flood of throw-away keys cannot grow it without limit; with a station database behind it,
 * claims survive a restart (kind 22242 is ephemeral: no relay can hand it back) and are shared by workers.
 */
export class AuthCache {
  private readonly entries: LRUCache<string, ObservedAuth>;

  constructor(
    maxEntries = 100_000,
    private readonly persisted?: StationDb['claims'],
    private readonly logger?: Logger,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  record(event: Pick<NostrEvent, 'id' | 'pubkey' | 'created_at'>): void {
    const known = this.read(event.pubkey);
    if (known && known.createdAt >= event.created_at) return;
    const claim = { id: event.id, pubkey: event.pubkey, createdAt: event.created_at };
    this.entries.set(event.pubkey, claim);
    this.persisted?.put(event.pubkey, claim).catch((error: unknown) => {
      this.logger?.warn({ err: error }, 'relay-observed login not persisted');
    });
  }

  /** The newest event of `pubkey` not older than `since` (unix seconds). */
  lookup(pubkey: string, since: number): ObservedAuth | null {
    const entry = this.read(pubkey);
    return entry && entry.createdAt >= since ? entry : null;
  }

  /** Removes persisted claims older than `before`; run now and then so the database stays small. */
  async prune(before: number): Promise<number> {
    if (!this.persisted) return 0;
    let removed = 0;
    for (const { key, value } of this.persisted.getRange({})) {
      if (value.createdAt < before) {
        await this.persisted.remove(key);
        removed++;
      }
    }
    return removed;
  }

  get size(): number {
    return this.entries.size;
  }

  private read(pubkey: string): ObservedAuth | null {
    const cached = this.entries.get(pubkey);
    if (cached) return cached;
    const stored = this.persisted?.get(pubkey);
    if (!stored) return null;
    this.entries.set(pubkey, stored);
    return stored;
  }
}
