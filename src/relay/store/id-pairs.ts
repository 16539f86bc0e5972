import type { Key } from 'lmdb';
import type { Filter, NostrEvent } from 'nostr-tools';
import { compileFilter } from '../../nostr/filters.js';
import { isExpired } from '../../nostr/nip40.js';
import { ID_MAX, indexValue, type StoreDbs } from './indexes.js';
import { mergedRanges, pairBefore, type IdPair } from './merged-ranges.js';
import { planFilter } from './query-plan.js';

export type { IdPair } from './merged-ranges.js';

/**
 * The (created_at, id) pairs of a filter's events, oldest first (then lowest id), read from the indexes a
 * chunk at a time: each `next` is a few short range reads, so a caller can yield to the event loop between
 * them. `over` turns true, and reading stops, once more than `max` index entries would be needed.
 */
export interface IdPairs {
  /** At most `count` more pairs; an empty array once everything (or `max` entries) has been read. */
  next(count: number): IdPair[];
  readonly over: boolean;
}

export interface IdPairOptions {
  /** Kinds whose events are left out (kind 22242 for a stranger). */
  hiddenKinds?: readonly number[];
}

/** Whether the chosen index alone decides a match: then only keys are read, never an event. */
function indexDecides(dbs: StoreDbs, filter: Filter, plan: ReturnType<typeof planFilter>): boolean {
  if ('ids' in plan) return false;
  const covered = new Set(['since', 'until', 'limit']);
  if (plan.db === dbs.byAuthorKind) covered.add('authors').add('kinds');
  else if (plan.db === dbs.byAuthor) covered.add('authors');
  else if (plan.db === dbs.byKind) covered.add('kinds');
  else if (plan.db === dbs.byTag) {
    // A tag value is indexed by its first 256 characters: a longer one needs the event to decide.
    const name = plan.prefixes[0]?.[0] as string;
    if ((filter[`#${name}`] ?? []).every((value) => indexValue(value) === value)) covered.add(`#${name}`);
  }
  return Object.entries(filter).every(([key, value]) => value === undefined || covered.has(key));
}

/** Ids left out whatever the filter: expired events not yet swept, and events of hidden kinds. */
function excludedIds(dbs: StoreDbs, now: number, hiddenKinds: readonly number[]): Set<string> {
  const excluded = new Set<string>();
  for (const key of dbs.byExpiration.getKeys({ end: [now, ID_MAX] }) as Iterable<Key[]>)
    excluded.add(key[1] as string);
  for (const kind of hiddenKinds)
    for (const key of dbs.byKind.getKeys({ start: [kind], end: [kind, Infinity, ID_MAX] }) as Iterable<Key[]>)
      excluded.add(key[2] as string);
  return excluded;
}

/** The pairs of `filter` (its `limit` ignored) in ascending order; see IdPairs. */
export function readIdPairs(
  dbs: StoreDbs,
  filter: Filter,
  max: number,
  now: number,
  options: IdPairOptions = {},
): IdPairs {
  const hidden = new Set(options.hiddenKinds ?? []);
  const matches = compileFilter(filter);
  const keep = (event: NostrEvent | undefined): event is NostrEvent =>
    event !== undefined && !hidden.has(event.kind) && !isExpired(event, now) && matches(event);
  const since = filter.since ?? -Infinity;
  const until = filter.until ?? Infinity;
  const empty = Object.values(filter).some((value) => Array.isArray(value) && value.length === 0);
  if (empty || since > until) return { next: () => [], over: false };
  const plan = planFilter(dbs, filter);

  if ('ids' in plan) {
    // A list of ids is short (filter values are bounded): read its events and sort their pairs once.
    const found = [...new Set(plan.ids)].map((id) => dbs.events.get(id)).filter(keep);
    const over = found.length > max;
    const pairs: IdPair[] = over ? [] : found.map((event) => [event.created_at, event.id] as const);
    pairs.sort((a, b) => (pairBefore(a, b) ? -1 : 1));
    return { next: (count) => pairs.splice(0, count), over };
  }

  const exact = indexDecides(dbs, filter, plan);
  const excluded = excludedIds(dbs, now, options.hiddenKinds ?? []);
  const nextPair = mergedRanges(plan.db, plan.prefixes, since, until);
  let previous: string | null = null;
  let examined = 0;
  let over = false;
  return {
    next(count) {
      const page: IdPair[] = [];
      while (page.length < count && !over) {
        const pair = nextPair();
        if (!pair) break;
        if (pair[1] === previous || excluded.has(pair[1])) continue;
        previous = pair[1];
        if (++examined > max) over = true;
        else if (exact || keep(dbs.events.get(pair[1]))) page.push(pair);
      }
      return page;
    },
    get over() {
      return over;
    },
  };
}
