import type { Filter, NostrEvent } from 'nostr-tools';
import type { EventStore } from './store/event-store.js';

/**
 * The stored events of one filter, newest first, `pageSize` at a time, at most `limit` in all. Each page is
 * a query of its own below the previous page's oldest second (NIP-01's `until` is inclusive: ids already
 * given at that second are skipped), so an answer of any size is read and sent a page at a time, with the
 * event loop free in between.
 */
export function* filterPages(
  store: Pick<EventStore, 'query'>,
  filter: Filter,
  limit: number,
  pageSize: number,
): Generator<NostrEvent[]> {
  let remaining = limit;
  let until = filter.until;
  let givenAtUntil = new Set<string>();
  while (remaining > 0) {
    const asked = Math.min(pageSize, remaining) + givenAtUntil.size;
    const page = store.query([{ ...filter, ...(until === undefined ? {} : { until }), limit: asked }], asked);
    const fresh = page.filter((event) => !givenAtUntil.has(event.id)).slice(0, remaining);
    if (fresh.length > 0) yield fresh;
    remaining -= fresh.length;
    if (page.length < asked || fresh.length === 0) return;
    const oldest = page[page.length - 1]!.created_at;
    if (oldest !== until) givenAtUntil = new Set();
    for (const event of page) if (event.created_at === oldest) givenAtUntil.add(event.id);
    until = oldest;
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
