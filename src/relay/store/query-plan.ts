import type { Database, Key } from 'lmdb';
import type { Filter, NostrEvent } from 'nostr-tools';
import { compileFilter } from '../../nostr/filters.js';
import { isExpired } from '../../nostr/nip40.js';
import { ID_MAX, INDEXED_TAGS, indexValue, type StoreDbs } from './indexes.js';

/**
 * Index entries and id lookups one `query` may examine, all filters together. Reads are synchronous on the
 * event loop: a filter the indexes serve badly (say `#x` on an unindexed tag over the whole time index) stops
 * here with what it found so far, newest first, instead of stalling the relay.
 */
export const MAX_SCANNED = 50_000;
/** Above this many author × kind pairs, one range per author (checking kinds after) is cheaper. */
const MAX_AUTHOR_KIND_PAIRS = 1_000;

type Plan = { ids: string[] } | { db: Database<Buffer, Key>; prefixes: Key[][] };

/** The most selective index for a filter: ids, then authors (+kinds), then one tag, then kinds, else time. */
export function planFilter(dbs: StoreDbs, filter: Filter): Plan {
  if (filter.ids) return { ids: filter.ids };
  const { authors, kinds } = filter;
  if (authors && kinds && authors.length * kinds.length <= MAX_AUTHOR_KIND_PAIRS) {
    return { db: dbs.byAuthorKind, prefixes: authors.flatMap((a) => kinds.map((k) => [a, k])) };
  }
  if (authors) return { db: dbs.byAuthor, prefixes: authors.map((a) => [a]) };
  let tag: [string, string[]] | undefined;
  for (const name of INDEXED_TAGS) {
    const values = filter[`#${name}`];
    if (values && (!tag || values.length < tag[1].length)) tag = [name, values];
  }
  if (tag) {
    const [name, values] = tag;
    return { db: dbs.byTag, prefixes: [...new Set(values.map(indexValue))].map((v) => [name, v]) };
  }
  if (kinds) return { db: dbs.byKind, prefixes: kinds.map((k) => [k]) };
  return { db: dbs.byTime, prefixes: [[]] };
}

function newestFirst(a: NostrEvent, b: NostrEvent): number {
  return b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A list field that is present but empty matches nothing (NIP-01). */
function matchesNothing(filter: Filter): boolean {
  return Object.values(filter).some((value) => Array.isArray(value) && value.length === 0);
}

interface Budget {
  left: number;
}

function queryFilter(
  dbs: StoreDbs,
  filter: Filter,
  limit: number,
  now: number,
  budget: Budget,
): NostrEvent[] {
  if (limit <= 0 || matchesNothing(filter)) return [];
  const since = filter.since ?? -Infinity;
  const until = filter.until ?? Infinity;
  if (since > until) return [];
  const matches = compileFilter(filter);
  const found = new Map<string, NostrEvent>();
  const take = (event: NostrEvent | undefined): boolean => {
    if (!event || isExpired(event, now) || !matches(event)) return false;
    found.set(event.id, event);
    return true;
  };
  const plan = planFilter(dbs, filter);
  if ('ids' in plan) {
    for (const id of new Set(plan.ids)) {
      if (budget.left-- <= 0) break;
      take(dbs.events.get(id));
    }
    return [...found.values()].sort(newestFirst).slice(0, limit);
  }
  // Once `limit` events are in hand, later ranges can stop below the oldest of them (ties kept: id decides).
  let floor = -Infinity;
  for (const prefix of plan.prefixes) {
    let taken = 0;
    let lastAt = Infinity;
    const range = plan.db.getKeys({
      start: [...prefix, until, ID_MAX],
      end: [...prefix, since],
      reverse: true,
    });
    for (const key of range as Iterable<Key[]>) {
      const at = key[prefix.length] as number;
      if (at < floor || (taken >= limit && at < lastAt) || budget.left-- <= 0) break;
      if (take(dbs.events.get(key[prefix.length + 1] as string))) {
        taken++;
        lastAt = at;
      }
    }
    if (budget.left <= 0) break;
    if (taken > 0 && found.size >= limit) {
      const kept = [...found.values()].sort(newestFirst);
      floor = (kept[limit - 1] as NostrEvent).created_at;
      for (const event of kept) if (event.created_at < floor) found.delete(event.id);
    }
  }
  return [...found.values()].sort(newestFirst).slice(0, limit);
}

/** Events matching any filter, newest first (then lowest id), each filter's limit capped by `limit`. */
export function runQuery(
  dbs: StoreDbs,
  filters: Filter[],
  limit: number,
  now: number,
  maxScanned = MAX_SCANNED,
): NostrEvent[] {
  const budget = { left: maxScanned };
  const all = new Map<string, NostrEvent>();
  for (const filter of filters) {
    const own = Math.min(filter.limit ?? limit, limit);
    for (const event of queryFilter(dbs, filter, own, now, budget)) all.set(event.id, event);
    if (budget.left <= 0) break;
  }
  return [...all.values()].sort(newestFirst).slice(0, Math.max(0, limit));
}
