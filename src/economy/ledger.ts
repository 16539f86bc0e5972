import { localTimestamp } from '../clock.js';
import type { CircuitHealth } from './circuit-breaker.js';

/** One incoming or outgoing Ğ1 transfer as the indexer reports it; amounts in cents. */
export interface LedgerTransfer {
  fromId: string;
  toId: string;
  amountCents: number;
  /** Milliseconds since the epoch. */
  timestampMs: number;
  blockNumber: number;
  /** The transfer's remark (`comment { remark }`), or null when it has none. */
  comment: string | null;
}

/** A ledger answer, and whether it is the last one the indexer gave because it could not give a newer one. */
export interface LedgerReading<V> {
  value: V;
  /** The indexer failed to refresh it (or is not asked for now: its circuit is open). */
  stale: boolean;
  /** Milliseconds since the epoch: when the indexer gave this answer. */
  fetchedAt: number;
}

/** Whether the indexer is asked at all, or fails at once since its last queries failed. */
export type IndexerHealth = CircuitHealth;

/**
 * The read side of the Ğ1 ledger the economy routes depend on. Addresses are SS58 (prefix 4450).
 * Implementations throw `DependencyError('indexer', …)` when the indexer cannot answer and they hold no
 * earlier answer: a balance is never invented.
 */
export interface Ledger {
  /** Balance in cents; 0 for an account the chain has never seen. */
  balanceCents(address: string): Promise<number>;
  /** Every transfer received by `address`, newest block first. */
  incomingTransfers(address: string): Promise<readonly LedgerTransfer[]>;
  /** `balanceCents`, saying whether the answer is stale. */
  balance(address: string): Promise<LedgerReading<number>>;
  /** `incomingTransfers`, saying whether the answer is stale. */
  incoming(address: string): Promise<LedgerReading<readonly LedgerTransfer[]>>;
  /** Null when the ledger cannot tell. */
  indexerHealth(): IndexerHealth | null;
}

/** What an answer adds when its reading is stale (docs/api-contract.md §10); nothing when it is current. */
export function staleFields(reading: LedgerReading<unknown>): { stale?: true; cached_at?: string } {
  return reading.stale ? { stale: true, cached_at: localTimestamp(reading.fetchedAt) } : {};
}
