import type { Filter, NostrEvent } from 'nostr-tools';
import { compileFilter, validateFilter } from '../nostr/filters.js';
import { NIP42_KIND } from '../nostr/nip42.js';
import type { RelayLimits } from './limits.js';
import type { RelayConnection } from './live-subscriptions.js';
import type { RateBuckets } from './rate-buckets.js';
import { filterPages, filterValues } from './req-pages.js';
import type { EventStore } from './store/event-store.js';

export interface ReqDeps {
  store: Pick<EventStore, 'query'>;
  limits: RelayLimits;
  /** REQs per address; the station's connection and exempt addresses do not take from it. */
  reqRate: RateBuckets;
  exempt: (connection: RelayConnection) => boolean;
}

/** Events read per query of an answer. */
const PAGE_EVENTS = 200;
/**
 * Past this many bytes queued for the client, an answer waits until half of them are written: a client that
 * reads gets any answer, one that does not holds at most this much per connection (plus one event per
 * subscription), well within RelayLimits.slowConsumerBytes.
 */
const QUEUED_PAUSE_BYTES = 512 * 1024;

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
    const limit = Math.min(filter.limit ?? fallback, cap, left);
    for (const page of filterPages(deps.store, filter, limit, PAGE_EVENTS)) {
      for (const event of page) {
        if (given.has(event.id) || left <= 0) continue;
        given.add(event.id);
        left--;
        connection.send(`${prefix}${JSON.stringify(event)}]`);
        if (connection.queuedBytes > QUEUED_PAUSE_BYTES) await connection.drained(QUEUED_PAUSE_BYTES / 2);
        if (!current()) return;
      }
      // A turn of the event loop between pages: other connections' messages are not kept waiting.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!current()) return;
      if (left <= 0) break;
    }
  }
  given = null;
  connection.send(frame('EOSE', id));
}
