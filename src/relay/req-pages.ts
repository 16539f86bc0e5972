import type { Filter, NostrEvent } from 'nostr-tools';
import type { EventStore } from './store/event-store.js';

/**
 * The stored events of one filter, newest first, a page at a time, at most `limit` in all. Each page is a
 * query of its own below the previous page's oldest second (NIP-01's `until` is inclusive: ids already given
 * at that second are skipped). Between pages the cursor holds only its position, never a page: an answer
 * waiting for a client that does not read costs a few ids.
 */
export class FilterCursor {
  private remaining: number;
  private until: number | undefined;
  private givenAtUntil = new Set<string>();
  private done = false;

  constructor(
    private readonly store: Pick<EventStore, 'query'>,
    private readonly filter: Filter,
    limit: number,
  ) {
    this.remaining = limit;
    this.until = filter.until;
  }

  /** The next page of at most `size` events; null once the filter has given everything. */
  next(size: number): NostrEvent[] | null {
    if (this.done || this.remaining <= 0) return null;
    const asked = Math.min(size, this.remaining) + this.givenAtUntil.size;
    const until = this.until === undefined ? {} : { until: this.until };
    const page = this.store.query([{ ...this.filter, ...until, limit: asked }], asked);
    const fresh = page.filter((event) => !this.givenAtUntil.has(event.id)).slice(0, this.remaining);
    this.remaining -= fresh.length;
    if (page.length < asked || fresh.length === 0) {
      this.done = true;
      return fresh.length > 0 ? fresh : null;
    }
    const oldest = page[page.length - 1]!.created_at;
    if (oldest !== this.until) this.givenAtUntil = new Set();
    for (const event of page) if (event.created_at === oldest) this.givenAtUntil.add(event.id);
    this.until = oldest;
    return fresh;
  }
}

/** How many values a filter asks the relay to match: what a subscription costs every event it is tested on. */
export function filterValues(filter: Filter): number {
  let values = 1;
  for (const [key, value] of Object.entries(filter))
    if (
      Array.isArray(value) &&
      (key === 'ids' || key === 'authors' || key === 'kinds' || key.startsWith('#'))
    )
      values += value.length;
  return values;
}
