import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import { DependencyError } from '../errors.js';
import type { LedgerReading } from './ledger.js';

interface Entry<V> {
  value: V;
  fetchedAt: number;
  /** The last refresh of this entry failed. */
  failed: boolean;
}

export type Loader<V> = (key: string, previous: V | undefined) => Promise<V>;

export interface ReadingCacheOptions {
  clock: Clock;
  /** Younger than this, an answer is served without asking the indexer. */
  freshMs: number;
  /** Older than this, an answer is not served while a refresh runs: the caller waits for a fresh one. */
  maxStaleMs: number;
  /** Older than this, an answer is not served even when the indexer cannot give a newer one. */
  maxStaleOnErrorMs: number;
  max: number;
  /** The indexer is known to be unavailable now (its circuit is open): an answer past `freshMs` is stale. */
  unavailable: () => boolean;
}

/**
 * Stale-while-revalidate, keeping the last answer through an outage: concurrent misses share one load, an
 * answer past `freshMs` is returned at once while one background refresh runs, and an answer past
 * `maxStaleMs` makes the caller wait for the refresh. When the indexer fails (or its circuit is open), the
 * last answer, up to `maxStaleOnErrorMs` old, is served marked stale; with none, the indexer's error is
 * thrown.
 */
export class ReadingCache<V> {
  private readonly lru: LRUCache<string, Entry<V>>;
  private readonly loading = new Map<string, Promise<Entry<V>>>();

  constructor(
    private readonly load: Loader<V>,
    private readonly options: ReadingCacheOptions,
  ) {
    this.lru = new LRUCache<string, Entry<V>>({ max: options.max });
  }

  async get(key: string): Promise<LedgerReading<V>> {
    const { clock, freshMs, maxStaleMs, maxStaleOnErrorMs } = this.options;
    const cached = this.lru.get(key);
    const age = cached ? clock.now() - cached.fetchedAt : Infinity;
    if (cached && age < freshMs) return reading(cached, false);
    if (cached && age <= maxStaleMs) {
      this.refresh(key, cached).catch(() => undefined);
      return reading(cached, cached.failed || this.options.unavailable());
    }
    try {
      return reading(await this.refresh(key, cached), false);
    } catch (error) {
      if (cached && error instanceof DependencyError && age <= maxStaleOnErrorMs)
        return reading(cached, true);
      throw error;
    }
  }

  /** One load per key at a time; a failure leaves the entry in place, marked. */
  private refresh(key: string, previous: Entry<V> | undefined): Promise<Entry<V>> {
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(key, previous?.value)
        .then(
          (value) => {
            const entry = { value, fetchedAt: this.options.clock.now(), failed: false };
            this.lru.set(key, entry);
            return entry;
          },
          (error: unknown) => {
            if (previous) previous.failed = true;
            throw error;
          },
        )
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }
}

function reading<V>(entry: Entry<V>, stale: boolean): LedgerReading<V> {
  return { value: entry.value, stale, fetchedAt: entry.fetchedAt };
}
