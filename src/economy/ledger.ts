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

/**
 * The read side of the Ğ1 ledger the economy routes depend on. Addresses are SS58 (prefix 4450).
 * Implementations throw `DependencyError('indexer', …)` when the indexer cannot answer: a balance is never
 * invented.
 */
export interface Ledger {
  /** Balance in cents; 0 for an account the chain has never seen. */
  balanceCents(address: string): Promise<number>;
  /** Every transfer received by `address`, newest block first. */
  incomingTransfers(address: string): Promise<readonly LedgerTransfer[]>;
}
