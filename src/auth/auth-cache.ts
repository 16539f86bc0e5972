import { LRUCache } from 'lru-cache';
import type { NostrEvent } from 'nostr-tools';

/** The newest verified kind-22242 event seen per key. */
export interface ObservedAuth {
  id: string;
  pubkey: string;
  createdAt: number;
}

/**
 * Fed by the kind-22242 stream (events already verified), read by the HTTP surface. Bounded so a flood of
 * throw-away keys cannot grow memory without limit.
 */
export class AuthCache {
  private readonly entries: LRUCache<string, ObservedAuth>;

  constructor(maxEntries = 100_000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  record(event: Pick<NostrEvent, 'id' | 'pubkey' | 'created_at'>): void {
    const known = this.entries.get(event.pubkey);
    if (known && known.createdAt >= event.created_at) return;
    this.entries.set(event.pubkey, { id: event.id, pubkey: event.pubkey, createdAt: event.created_at });
  }

  /** The newest event of `pubkey` not older than `since` (unix seconds). */
  lookup(pubkey: string, since: number): ObservedAuth | null {
    const entry = this.entries.get(pubkey);
    return entry && entry.createdAt >= since ? entry : null;
  }

  get size(): number {
    return this.entries.size;
  }
}
