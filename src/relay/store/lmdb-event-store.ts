import { statfs } from 'node:fs/promises';
import { open } from 'lmdb';
import type { Filter, NostrEvent } from 'nostr-tools';
import { systemClock, unixSeconds, type Clock } from '../../clock.js';
import { StoreWriteError, type EventStore, type PutResult, type StoreHealth } from './event-store.js';
import { readIdPairs, type IdPairOptions, type IdPairs } from './id-pairs.js';
import { MAX_DBS, openDbs, STORE_SCHEMA as SCHEMA, storedCount } from './indexes.js';
import { MAX_SCANNED, runQuery } from './query-plan.js';
import { sweepBatch } from './retention.js';
import { applyEvent, type BeforeWrite } from './write-path.js';

export const DEFAULT_MAX_EVENTS = 200_000;

export interface LmdbEventStoreOptions {
  /** Directory of the LMDB environment (created if missing; a name with a dot is still a directory). */
  path: string;
  /** Retention cap `sweep` brings the store back under, oldest first. Default 200,000. */
  maxEvents?: number;
  /** Time for NIP-40 expiration checks on put and query. Default: the system clock. */
  clock?: Clock;
  /** Index entries and id lookups one `query` may examine before answering with what it has. Default 50,000. */
  maxScanned?: number;
  /**
   * Test hook, run inside the write transaction after its first write (the event record, or the first removals
   * of a sweep): throwing from it shows a failed write leaves nothing behind.
   */
  beforeWrite?: BeforeWrite;
}

const FULL = /ENOSPC|EDQUOT|MDB_MAP_FULL|No space left|quota/i;
/**
 * A failed commit with less than this left on the store's file system is a full disk, whatever lmdb-js said
 * about it: a commit writes a few pages and its meta page, and LMDB grows its file as it writes.
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** Whether the file system of `path` has almost no room left (unknown: false). */
async function nearlyFull(path: string): Promise<boolean> {
  const stats = await statfs(path).catch(() => null);
  return stats !== null && Number(stats.bavail) * Number(stats.bsize) < NEARLY_FULL_BYTES;
}

/**
 * lmdb-js rejects a failed commit with a generic error whose `commitError` promise carries the real one
 * (errno 28 for ENOSPC). Handling it here also keeps that inner rejection from going unhandled. That promise
 * may settle only with a later commit, so it is waited for a moment; a disk with almost no room left then
 * settles the question, the same on a busy machine as on an idle one.
 */
async function toWriteError(error: unknown, path: string): Promise<StoreWriteError> {
  if (error instanceof StoreWriteError) return error;
  let cause = error;
  const commitError = (error as { commitError?: Promise<unknown> } | null)?.commitError;
  if (commitError && typeof commitError.then === 'function') {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<unknown>((resolve) => (timer = setTimeout(resolve, 1_000, error)));
    cause = await Promise.race([
      commitError.then(
        () => error,
        (inner: unknown) => inner,
      ),
      late,
    ]);
    clearTimeout(timer);
  }
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  const full =
    code === 28 || code === 122 || FULL.test(String(code)) || FULL.test(message) || (await nearlyFull(path));
  return new StoreWriteError(full ? 'STORE_FULL' : 'STORE_IO', `event store write failed: ${message}`, {
    cause,
  });
}

/**
 * Opens (or creates) the LMDB event store at `options.path`. Opening reads one schema key and nothing else, so
 * it costs the same whatever the store holds. See indexes.ts for the layout.
 */
export async function openLmdbEventStore(options: LmdbEventStoreOptions): Promise<EventStore> {
  const clock = options.clock ?? systemClock;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const maxScanned = options.maxScanned ?? MAX_SCANNED;
  const root = open({
    path: options.path,
    noSubdir: false,
    maxDbs: MAX_DBS,
    // A commit promise then resolves only after LMDB's fsync: `put` resolving means durable, and a disk error
    // fails the commit itself (with overlapping sync it would surface later, on a separate flush).
    overlappingSync: false,
    // With event-turn batching lmdb-js keeps a commit promise of its own that nobody awaits; a failed commit
    // (disk full) would then reject it unhandled and bring the process down.
    eventTurnBatching: false,
  });
  const dbs = openDbs(root);
  const schema = dbs.meta.get('schema');
  if (schema !== undefined && schema !== SCHEMA) {
    await root.close();
    throw new Error(`event store at ${options.path} has layout ${schema}, this code reads layout ${SCHEMA}`);
  }
  if (schema === undefined) {
    await root.childTransaction(() => {
      if (dbs.meta.get('schema') === undefined) void dbs.meta.put('schema', SCHEMA);
    });
  }

  let lastError: string | null = null;
  let closed = false;
  let closedCount = 0;

  /**
   * Runs `write` in its own child transaction (rolled back if it throws) of the next commit. A write error is
   * reported until a later write that `wrote` something succeeds: a sweep that removed nothing proves nothing.
   */
  async function write<T>(work: () => T, wrote: (result: T) => boolean = () => true): Promise<T> {
    if (closed) throw new Error('event store is closed');
    try {
      const result = await root.childTransaction(work);
      if (wrote(result)) lastError = null;
      return result;
    } catch (error) {
      const failure = await toWriteError(error, options.path);
      lastError = failure.message;
      throw failure;
    }
  }

  return {
    put(event: NostrEvent): Promise<PutResult> {
      return write(() => applyEvent(dbs, event, unixSeconds(clock), options.beforeWrite));
    },
    query(filters: Filter[], limit: number): NostrEvent[] {
      if (closed) throw new Error('event store is closed');
      return runQuery(dbs, filters, limit, unixSeconds(clock), maxScanned);
    },
    idsMatching(filter: Filter, max: number, idOptions?: IdPairOptions): IdPairs {
      if (closed) throw new Error('event store is closed');
      const pairs = readIdPairs(dbs, filter, max, unixSeconds(clock), idOptions);
      // A reconciliation reads across event turns: a store closed meanwhile ends it with what it has.
      return {
        next: (count) => (closed ? [] : pairs.next(count)),
        get over() {
          return pairs.over;
        },
      };
    },
    sweep(now: number, batch = 500): Promise<number> {
      return write(
        () => sweepBatch(dbs, now, batch, maxEvents, options.beforeWrite),
        (removed) => removed > 0,
      );
    },
    signatureOf(id: string): string | undefined {
      if (closed) return undefined;
      return dbs.events.get(id)?.sig;
    },
    health(): StoreHealth {
      return { ok: lastError === null, events: closed ? closedCount : storedCount(dbs), error: lastError };
    },
    async close(): Promise<void> {
      if (closed) return;
      closedCount = storedCount(dbs);
      closed = true;
      await root.close();
    },
  };
}
