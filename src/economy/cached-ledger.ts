import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { GraphqlPool } from './graphql.js';
import type { IndexerHealth, Ledger, LedgerReading, LedgerTransfer } from './ledger.js';
import { ReadingCache } from './reading-cache.js';
import { SquidLedger } from './squid.js';

export interface CacheOptions {
  clock: Clock;
  /** Younger than this, an answer is served without asking the indexer. */
  freshMs?: number;
  /** Older than this, an answer is too old to show while refreshing: the caller waits for a fresh one. */
  maxStaleMs?: number;
  /** Older than this, an answer is not shown even when the indexer cannot give a newer one. Default a day. */
  maxStaleOnErrorMs?: number;
  /** A transfer history is re-read whole this often; in between only its newest pages are read. */
  fullRefreshMs?: number;
  /** Blocks below the newest known one that an incremental refresh re-reads, in case of late indexing. */
  overlapBlocks?: number;
  /** Addresses kept per kind of answer. */
  maxEntries?: number;
}

interface History {
  transfers: readonly LedgerTransfer[];
  fullAt: number;
}

type Source = Pick<SquidLedger, 'balanceCents' | 'readIncoming'> &
  Partial<Pick<SquidLedger, 'indexerHealth'>>;

/**
 * The ledger the routes use: indexer reads behind short-lived, shared caches that keep the last answer
 * through an outage (reading-cache.ts).
 */
export class CachedLedger implements Ledger {
  private readonly balances: ReadingCache<number>;
  private readonly histories: ReadingCache<History>;
  private readonly fullRefreshMs: number;
  private readonly overlapBlocks: number;

  constructor(
    private readonly source: Source,
    private readonly options: CacheOptions,
  ) {
    const settings = {
      clock: options.clock,
      freshMs: options.freshMs ?? 30_000,
      maxStaleMs: options.maxStaleMs ?? 10 * 60_000,
      maxStaleOnErrorMs: options.maxStaleOnErrorMs ?? 24 * 3_600_000,
      max: options.maxEntries ?? 1_000,
      unavailable: () => (this.indexerHealth()?.state ?? 'closed') !== 'closed',
    };
    this.fullRefreshMs = options.fullRefreshMs ?? 60 * 60_000;
    this.overlapBlocks = options.overlapBlocks ?? 100;
    this.balances = new ReadingCache((address) => source.balanceCents(address), settings);
    this.histories = new ReadingCache((address, previous) => this.loadHistory(address, previous), settings);
  }

  async balanceCents(address: string): Promise<number> {
    return (await this.balance(address)).value;
  }

  async incomingTransfers(address: string): Promise<readonly LedgerTransfer[]> {
    return (await this.incoming(address)).value;
  }

  balance(address: string): Promise<LedgerReading<number>> {
    return this.balances.get(address);
  }

  async incoming(address: string): Promise<LedgerReading<readonly LedgerTransfer[]>> {
    const reading = await this.histories.get(address);
    return { ...reading, value: reading.value.transfers };
  }

  indexerHealth(): IndexerHealth | null {
    return this.source.indexerHealth?.() ?? null;
  }

  /** Long histories are refreshed from the top down to a little below the newest block already known. */
  private async loadHistory(address: string, previous: History | undefined): Promise<History> {
    const now = this.options.clock.now();
    const newest = previous?.transfers[0];
    if (!previous || !newest || now - previous.fullAt >= this.fullRefreshMs) {
      return { transfers: await this.source.readIncoming(address), fullAt: now };
    }
    const cutoff = newest.blockNumber - this.overlapBlocks;
    const top = await this.source.readIncoming(address, { stopBelowBlock: cutoff });
    return {
      transfers: [
        ...top.filter((t) => t.blockNumber >= cutoff),
        ...previous.transfers.filter((t) => t.blockNumber < cutoff),
      ],
      fullAt: previous.fullAt,
    };
  }
}

/** The production ledger: SQUID_URL then SQUID_FALLBACKS, with time limits, a circuit breaker and caching. */
export function createLedger(config: Pick<Config, 'squidUrls'>, clock: Clock, logger?: Logger): Ledger {
  const pool = new GraphqlPool({ urls: config.squidUrls, clock, logger });
  return new CachedLedger(new SquidLedger(pool), { clock });
}
