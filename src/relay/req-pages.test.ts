import type { Filter, NostrEvent } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { FilterCursor, filterValues } from './req-pages.js';

/** A store of events answering like the LMDB store: newest first, `until` inclusive, at most `limit`. */
function storeOf(events: NostrEvent[]) {
  const queries: Filter[] = [];
  return {
    queries,
    query(filters: Filter[], limit: number): NostrEvent[] {
      const [filter] = filters as [Filter];
      queries.push(filter);
      return events
        .filter((event) => filter.until === undefined || event.created_at <= filter.until)
        .filter((event) => !filter.kinds || filter.kinds.includes(event.kind))
        .sort((a, b) => b.created_at - a.created_at || a.id.localeCompare(b.id))
        .slice(0, Math.min(limit, filter.limit ?? limit));
    },
  };
}

const event = (n: number, created_at: number): NostrEvent =>
  ({ id: n.toString(16).padStart(64, '0'), created_at, kind: 1 }) as NostrEvent;

/** Every page of a cursor, `size` events at a time. */
function pagesOf(cursor: FilterCursor, size: number): NostrEvent[][] {
  const pages: NostrEvent[][] = [];
  for (let page = cursor.next(size); page; page = cursor.next(size)) pages.push(page);
  return pages;
}

describe('FilterCursor', () => {
  it('gives every event once, newest first, even when many share the second at a page boundary', () => {
    const events = [
      ...Array.from({ length: 30 }, (_, i) => event(i, 1_000)),
      ...Array.from({ length: 25 }, (_, i) => event(100 + i, 900 - i)),
    ];
    const store = storeOf(events);
    const pages = pagesOf(new FilterCursor(store, { kinds: [1] }, 1_000), 7);
    const given = pages.flat();
    expect(given).toHaveLength(55);
    expect(new Set(given.map((e) => e.id)).size).toBe(55);
    expect(given.map((e) => e.created_at)).toEqual([...given.map((e) => e.created_at)].sort((a, b) => b - a));
    expect(pages.every((page) => page.length <= 7)).toBe(true);
  });

  it('stops at the limit and at the filter until', () => {
    const events = Array.from({ length: 50 }, (_, i) => event(i, 1_000 + i));
    expect(pagesOf(new FilterCursor(storeOf(events), {}, 12), 5).flat()).toHaveLength(12);
    const older = pagesOf(new FilterCursor(storeOf(events), { until: 1_009 }, 100), 4).flat();
    expect(older).toHaveLength(10);
  });

  it('counts the values a filter asks to match', () => {
    expect(filterValues({ kinds: [1, 7], authors: ['a'], '#t': ['x', 'y', 'z'], limit: 3 })).toBe(7);
    expect(filterValues({})).toBe(1);
  });
});
