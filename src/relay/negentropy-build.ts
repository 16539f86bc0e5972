import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Filter } from 'nostr-tools';
import type { RelayLimits } from './limits.js';
import { CompactStorage } from './negentropy-storage.js';
import type { EventStore } from './store/event-store.js';

/** Records held by all open reconciliations together, against RelayLimits.maxNegRecordsTotal. */
export interface RecordBudget {
  held: number;
  max: number;
}

export interface BuildContext {
  limits: Pick<RelayLimits, 'maxNegRecords'>;
  /** Kinds left out (22242 for a stranger). */
  hidden: readonly number[];
  budget: RecordBudget;
  /** The records this reconciliation holds, given back to the budget when it closes. */
  session: { records: number };
  /** False once the reconciliation was closed or replaced, or its connection ended: the build stops. */
  current: () => boolean;
}

/** Pairs read per event-loop turn: about a millisecond of index reads. */
const CHUNK = 4_096;

/**
 * The relay's side of a reconciliation: the filter's (created_at, id) pairs read from the store's indexes a
 * chunk per event-loop turn, so a big set never holds the relay thread for long, into a sealed storage (the
 * newest `limit` when the filter has one). A NEG-ERR reason instead when it covers too many records, or the
 * relay holds too many already; null when it was closed meanwhile.
 */
export async function buildStorage(
  store: Pick<EventStore, 'idsMatching'>,
  filter: Filter,
  context: BuildContext,
): Promise<CompactStorage | string | null> {
  const { limits, budget, session } = context;
  const pairs = store.idsMatching(filter, limits.maxNegRecords, { hiddenKinds: context.hidden });
  const storage = new CompactStorage();
  for (;;) {
    const page = pairs.next(CHUNK);
    if (pairs.over) return `blocked: this query covers more than ${limits.maxNegRecords} records`;
    if (page.length === 0) break;
    if (budget.held + page.length > budget.max)
      return 'blocked: the relay holds too many reconciliations now, try again later';
    budget.held += page.length;
    session.records += page.length;
    for (const [at, id] of page) storage.insert(at, id);
    await nextTurn();
    if (!context.current()) return null;
  }
  if (filter.limit !== undefined) storage.keepNewest(filter.limit);
  storage.seal();
  return storage;
}
