import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { GraphqlPool } from './graphql.js';
import type { Ledger, LedgerTransfer } from './ledger.js';
import { SquidLedger } from './squid.js';

export interface CacheOptions {
  clock: Clock;
  /** Younger than this, an answer is served without asking the indexer. */
  freshMs?: number;
  /** Older than this, an answer is too old to show even while refreshing: the caller waits for a fresh one. */
  maxStaleMs?: number;
  /** A transfer history is re-read whole this often; in between only its newest pages are read. */
  fullRefreshMs?: number;
  /** Blocks below the newest known one that an incremental refresh re-reads, in case of late indexing. */
  overlapBlocks?: number;
  /** Addresses kept per kind of answer. */
  maxEntries?: number;
}

interface Stamped<V> {
  value: V;
  fetchedAt: number;
}

interface History {
  transfers: readonly LedgerTransfer[];
  fullAt: number;
}

type Loader<V> = (key: string, previous: Stamped<V> | undefined, signal: AbortSignal) => Promise<V>;

/**
 * Stale-while-revalidate on top of lru-cache: concurrent misses share one fetch, an answer past `freshMs` is
 * returned at once while one background refresh runs, and an answer past `maxStaleMs` is not shown at all.
 * A failed refresh drops the entry, so the next caller sees the indexer error instead of old data forever.
 */
class SwrCache<V extends object> {
  private readonly lru: LRUCache<string, Stamped<V>>;

  constructor(
    load: Loader<V>,
    private readonly clock: Clock,
    private readonly maxStaleMs: number,
    freshMs: number,
    max: number,
  ) {
    this.lru = new LRUCache<string, Stamped<V>>({
      max,
      ttl: freshMs,
      ttlResolution: 0,
      perf: { now: () => clock.now() },
      fetchMethod: async (key, previous, { signal }) => ({
        value: await load(key, previous, signal),
        fetchedAt: clock.now(),
      }),
    });
  }

  async get(key: string): Promise<V> {
    const cached = this.lru.peek(key, { allowStale: true });
    const tooOld = cached !== undefined && this.clock.now() - cached.fetchedAt > this.maxStaleMs;
    const entry = await this.lru.fetch(key, { allowStale: !tooOld });
    if (!entry) throw new Error(`cache fetch for ${key} was aborted`);
    return entry.value;
  }
}

/** The ledger the routes use: indexer reads behind short-lived, shared, stale-while-revalidate caches. */
export class CachedLedger implements Ledger {
  private readonly balances: SwrCache<{ cents: number }>;
  private readonly histories: SwrCache<History>;
  private readonly fullRefreshMs: number;
  private readonly overlapBlocks: number;

  constructor(
    private readonly source: Pick<SquidLedger, 'balanceCents' | 'readIncoming'>,
    private readonly options: CacheOptions,
  ) {
    const freshMs = options.freshMs ?? 30_000;
    const maxStaleMs = options.maxStaleMs ?? 10 * 60_000;
    const max = options.maxEntries ?? 1_000;
    this.fullRefreshMs = options.fullRefreshMs ?? 60 * 60_000;
    this.overlapBlocks = options.overlapBlocks ?? 100;
    this.balances = new SwrCache(
      async (address, _previous, signal) => ({ cents: await source.balanceCents(address, signal) }),
      options.clock,
      maxStaleMs,
      freshMs,
      max,
    );
    this.histories = new SwrCache(
      (address, previous, signal) => this.loadHistory(address, previous?.value, signal),
      options.clock,
      maxStaleMs,
      freshMs,
      max,
    );
  }

  async balanceCents(address: string): Promise<number> {
    return (await this.balances.get(address)).cents;
  }

  async incomingTransfers(address: string): Promise<readonly LedgerTransfer[]> {
    return (await this.histories.get(address)).transfers;
  }

  /** Long histories are refreshed from the top down to a little below the newest block already known. */
  private async loadHistory(address: string, previous: History | undefined, signal: AbortSignal) {
    const now = this.options.clock.now();
    const newest = previous?.transfers[0];
    if (!previous || !newest || now - previous.fullAt >= this.fullRefreshMs) {
      return { transfers: await this.source.readIncoming(address, { signal }), fullAt: now };
    }
    const cutoff = newest.blockNumber - this.overlapBlocks;
    const top = await this.source.readIncoming(address, { stopBelowBlock: cutoff, signal });
    return {
      transfers: [
        ...top.filter((t) => t.blockNumber >= cutoff),
        ...previous.transfers.filter((t) => t.blockNumber < cutoff),
      ],
      fullAt: previous.fullAt,
    };
  }
}

/** The production ledger: SQUID_URL then SQUID_FALLBACKS, with time limits and caching. */
export function createLedger(config: Pick<Config, 'squidUrls'>, clock: Clock, logger?: Logger): Ledger {
  const pool = new GraphqlPool({ urls: config.squidUrls, clock, logger });
  return new CachedLedger(new SquidLedger(pool), { clock });
}
