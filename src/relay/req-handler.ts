import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Filter, NostrEvent } from 'nostr-tools';
import { compileFilter, validateFilter } from '../nostr/filters.js';
import { NIP42_KIND } from '../nostr/nip42.js';
import type { RelayLimits } from './limits.js';
import type { RelayConnection } from './live-subscriptions.js';
import type { RateBuckets } from './rate-buckets.js';
import { FilterCursor, filterValues } from './req-pages.js';
import type { EventStore } from './store/event-store.js';

export interface ReqDeps {
  store: Pick<EventStore, 'query'>;
  limits: RelayLimits;
  /** REQs per address; the station's connection and exempt addresses do not take from it. */
  reqRate: RateBuckets;
  exempt: (connection: RelayConnection) => boolean;
  /** Stored events read for answers, counted for /health. */
  counts: { answerEventsRead: number };
}

/**
 * An answer is read and sent a page at a time: about `PAGE_BYTES` of events (the first page `FIRST_PAGE`
 * events, later ones sized by what the previous page's events weighed), then it waits until at most
 * `PAGE_BYTES` are queued for the client before reading the next. Pages of a connection's answers take turns,
 * so one page at most sits above that mark: a client that reads gets any answer, one that does not holds about
 * two pages, and an answer waiting for it holds its cursor, not events.
 */
const PAGE_BYTES = 128 * 1024;
const FIRST_PAGE = 10;
const MAX_PAGE = 200;

/** The last page sent to each connection, which the next one waits behind. */
const turns = new WeakMap<RelayConnection, Promise<void>>();

/**
 * Runs `work` once the connection's previous page has been sent and taken. Each page then gives the event loop
 * a turn: when the client takes pages as fast as they are read (or its socket is gone and nothing is queued),
 * `drained` resolves at once, and without that turn a whole answer would be read in one stretch of microtasks,
 * with no socket, timer or other client served meanwhile (docs/decisions.md, "The relay on a thread of its own").
 */
async function inTurn(connection: RelayConnection, work: () => void): Promise<void> {
  const previous = turns.get(connection) ?? Promise.resolve();
  let release!: () => void;
  turns.set(connection, new Promise<void>((resolve) => (release = resolve)));
  try {
    await previous;
    work();
    await connection.drained(PAGE_BYTES);
    await nextTurn();
  } finally {
    release();
  }
}

const frame = (...parts: unknown[]) => JSON.stringify(parts);

/** Why a REQ is refused before anything is read (the CLOSED message), or its filters. */
function admit(
  deps: ReqDeps,
  connection: RelayConnection,
  id: string,
  candidates: unknown[],
): string | Filter[] {
  const { limits } = deps;
  if (connection.subscriptions.size >= limits.maxSubscriptions)
    return `error: at most ${limits.maxSubscriptions} subscriptions per connection`;
  if (candidates.length === 0 || candidates.length > limits.maxFilters)
    return `invalid: a REQ has 1 to ${limits.maxFilters} filters`;
  const filters: Filter[] = [];
  for (const candidate of candidates) {
    const checked = validateFilter(candidate);
    if (typeof checked === 'string') return `invalid: ${checked}`;
    filters.push(checked);
  }
  const values = filters.reduce((sum, filter) => sum + filterValues(filter), 0);
  if (!connection.privileged && connection.filterValues + values > limits.maxFilterValues)
    return `error: at most ${limits.maxFilterValues} filter values in a connection's open subscriptions`;
  if (!deps.exempt(connection) && !deps.reqRate.take(connection.addressKey))
    return `rate-limited: at most ${limits.reqsPerSecond} REQs a second from one address`;
  // A REQ for logins only is refused as NIP-42 says; in a wider REQ they are simply never delivered, so a
  // client that is not (yet) the station still receives everything else.
  if (
    !connection.privileged &&
    filters.every((filter) => filter.kinds?.length && filter.kinds.every((kind) => kind === NIP42_KIND))
  ) {
    return connection.pubkey
      ? 'restricted: kind 22242 events are delivered only to the station'
      : 'auth-required: kind 22242 events are delivered only to the station';
  }
  connection.subscriptionValues.set(id, values);
  connection.filterValues += values;
  return filters;
}

/**
 * Answers a REQ: its stored events a page at a time (each page read only once the client has taken the
 * previous one), then EOSE, while new matching events are delivered live from the start. A CLOSE, a new REQ
 * under the same id or the connection's end stops the answer at the next page.
 */
export async function answerReq(
  deps: ReqDeps,
  connection: RelayConnection,
  id: string,
  candidates: unknown[],
): Promise<void> {
  connection.closeSubscription(id);
  const admitted = admit(deps, connection, id, candidates);
  if (typeof admitted === 'string') return void connection.send(frame('CLOSED', id, admitted));
  const { limits } = deps;
  // The station's own back-fill asks for everything since its resume point: no default cut for it.
  const cap = connection.privileged ? limits.privilegedMaxLimit : limits.maxLimit;
  const fallback = connection.privileged ? cap : limits.defaultLimit;
  const predicates = admitted.map(compileFilter);
  // Events given while the stored ones are still being read, live or stored, are given once.
  let given: Set<string> | null = new Set();
  const live = (event: NostrEvent) => {
    if (!predicates.some((matches) => matches(event))) return false;
    if (given === null) return true;
    if (given.has(event.id)) return false;
    given.add(event.id);
    return true;
  };
  connection.subscriptions.set(id, live);
  const current = () => connection.open && connection.subscriptions.get(id) === live;
  const prefix = `["EVENT",${JSON.stringify(id)},`;
  let left = cap;
  for (const filter of admitted) {
    const cursor = new FilterCursor(deps.store, filter, Math.min(filter.limit ?? fallback, cap, left));
    let size = FIRST_PAGE;
    let more = true;
    while (more && left > 0) {
      await inTurn(connection, () => {
        if (!current()) return void (more = false);
        const page = cursor.next(Math.min(size, left));
        if (!page) return void (more = false);
        deps.counts.answerEventsRead += page.length;
        let bytes = 0;
        for (const event of page) {
          if (given!.has(event.id)) continue;
          given!.add(event.id);
          left--;
          const text = `${prefix}${JSON.stringify(event)}]`;
          bytes += text.length;
          connection.send(text);
        }
        size = Math.max(1, Math.min(MAX_PAGE, Math.floor((PAGE_BYTES * page.length) / Math.max(1, bytes))));
      });
      if (!current()) return;
    }
  }
  given = null;
  connection.send(frame('EOSE', id));
}
