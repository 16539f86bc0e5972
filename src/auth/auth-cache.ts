import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { ObservedClaim, StationDb } from '../state/station-db.js';

/** A relay-observed login: the kind-22242 event, and the client address it is bound to ('*' = any, legacy). */
export type ObservedAuth = ObservedClaim;

/** The address of logins accepted without a station challenge (AUTH_LEGACY_RELAY_LOGIN): any address. */
export const ANY_ADDRESS = '*';

/**
 * Fed by the kind-22242 stream (events already verified and bound), read by the HTTP surface. The memory part
 * is bounded so a flood of throw-away keys cannot grow it; the station database behind it keeps claims across
 * restarts (kind 22242 is ephemeral: no relay can hand it back) and shares them with the other workers.
 */
export class AuthCache {
  private readonly entries: LRUCache<string, ObservedAuth>;
  /**
   * Logins accepted whose write failed (a full disk): served from memory meanwhile, written again by the
   * next `prune` (every minute, src/auth/services.ts), so that once there is room they outlive a restart.
   */
  private readonly unsaved = new LRUCache<string, ObservedAuth>({ max: 10_000 });
  /** The newest login seen from each address in this process, while its write is on its way (or failed). */
  private readonly recentAt = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly persisted: StationDb['claims'],
    private readonly logger?: Logger,
    maxEntries = 100_000,
    private readonly byAddress?: StationDb['claimsByAddress'],
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  record(claim: ObservedAuth): void {
    const known = this.read(claim.pubkey, claim.address);
    if (known && known.createdAt >= claim.createdAt) return;
    this.entries.set(`${claim.pubkey}|${claim.address}`, claim);
    if ((this.recentAt.get(claim.address) ?? -1) < claim.createdAt)
      this.recentAt.set(claim.address, claim.createdAt);
    void this.persist(claim);
  }

  /** Writes a claim; never rejects: a failure is logged and the claim kept for the next try. */
  private async persist(claim: ObservedAuth): Promise<void> {
    const key = `${claim.pubkey}|${claim.address}`;
    // Another worker may have written a newer login of the same key since (a retry comes a minute later).
    if ((this.persisted.get([claim.pubkey, claim.address])?.createdAt ?? -1) >= claim.createdAt) return;
    try {
      await Promise.all([
        this.persisted.put([claim.pubkey, claim.address], claim),
        this.byAddress?.put([claim.address, claim.pubkey], claim.createdAt),
      ]);
      // Written: an older claim left to retry must not overwrite it later.
      if ((this.unsaved.get(key)?.createdAt ?? Infinity) <= claim.createdAt) this.unsaved.delete(key);
    } catch (error) {
      if ((this.unsaved.get(key)?.createdAt ?? -1) <= claim.createdAt) this.unsaved.set(key, claim);
      this.logger?.warn({ err: error }, 'relay-observed login not persisted; tried again at the next sweep');
    }
  }

  /** The newest claim of `pubkey` from `address` (or a legacy one for any address) not older than `since`. */
  lookup(pubkey: string, address: string, since: number): ObservedAuth | null {
    for (const candidate of [address, ANY_ADDRESS]) {
      const entry = this.read(pubkey, candidate);
      if (entry && entry.createdAt >= since) return entry;
    }
    return null;
  }

  /** Whether some key has a login from `address` not older than `since` (uploads that send the file first). */
  anyLoginAt(address: string, since: number): boolean {
    if ((this.recentAt.get(address) ?? -1) >= since) return true;
    if (!this.byAddress) return false;
    for (const { value } of this.byAddress.getRange({ start: [address], end: [address, '\uffff'] }))
      if (value >= since) return true;
    return false;
  }

  /**
   * Writes again the claims a failed write left in memory only, then removes persisted claims older than
   * `before`; run now and then so the database stays small.
   */
  async prune(before: number): Promise<number> {
    const retries = [...this.unsaved.values()];
    this.unsaved.clear();
    await Promise.all(
      retries.filter((claim) => claim.createdAt >= before).map((claim) => this.persist(claim)),
    );
    const stale = [...this.persisted.getRange({})].filter(({ value }) => value.createdAt < before);
    if (stale.length > 0)
      await this.persisted.transaction(() => stale.forEach(({ key }) => void this.persisted.remove(key)));
    return stale.length;
  }

  get size(): number {
    return this.entries.size;
  }

  private read(pubkey: string, address: string): ObservedAuth | null {
    const key = `${pubkey}|${address}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    const stored = this.persisted.get([pubkey, address]);
    if (!stored) return null;
    this.entries.set(key, stored);
    return stored;
  }
}
