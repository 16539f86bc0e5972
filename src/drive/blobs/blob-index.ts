import { GroupedTransactions, type CommitPacing } from '../../state/commit-pacing.js';
import type { BlobFacts, HeldBlob, StationDb } from '../../state/station-db.js';

export type { BlobFacts, HeldBlob };

/** One user's blob as the Blossom and NIP-96 lists show it. */
export interface OwnedBlob extends BlobFacts, HeldBlob {
  sha256: string;
}

const LAST = '\uffff';

/**
 * Which drive files exist by SHA-256, and who holds each: what serving a blob by hash, listing a user's blobs
 * and deleting one user's copy need, without reading any drive. The drives stay the truth; this index
 * follows them (DriveObserver) and is reconciled with them at start (reconcile.ts). Kept in the station's
 * LMDB so every worker and the CLI share it.
 */
export class BlobIndex {
  /**
   * Every upload and delete changes the index: the changes of concurrent ones share a transaction (one per
   * pacing gap under load) instead of one transaction and one flush each.
   */
  private readonly changes: GroupedTransactions;

  constructor(
    private readonly db: Pick<StationDb, 'blobs' | 'blobsByOwner' | 'blobHolders'>,
    pacing?: CommitPacing,
  ) {
    this.changes = new GroupedTransactions((body) => db.blobs.transaction(body), pacing);
  }

  /** The blob's content, if some user still holds it: `forget` removes it with its last holder. */
  find(sha256: string): BlobFacts | undefined {
    return this.db.blobs.get(sha256);
  }

  heldBy(pubkey: string, sha256: string): OwnedBlob | undefined {
    const held = this.db.blobsByOwner.get([pubkey, sha256]);
    const facts = held && this.db.blobs.get(sha256);
    return held && facts ? { sha256, ...facts, ...held } : undefined;
  }

  /** Whether any drive holds the blob: one key read, whatever the number of holders. */
  private isHeld(sha256: string): boolean {
    const range = this.db.blobHolders.getRange({ start: [sha256, ''], end: [sha256, LAST], limit: 1 });
    return [...range].length > 0;
  }

  /** A user's blobs, newest first (the order BUD-12 and NIP-96 list them in). */
  owned(pubkey: string): OwnedBlob[] {
    const range = this.db.blobsByOwner.getRange({ start: [pubkey, ''], end: [pubkey, LAST] });
    const blobs: OwnedBlob[] = [];
    for (const { key, value } of range) {
      const facts = this.db.blobs.get(key[1]);
      if (facts) blobs.push({ sha256: key[1], ...facts, ...value });
    }
    return blobs.sort((a, b) => b.uploaded - a.uploaded || (a.sha256 < b.sha256 ? -1 : 1));
  }

  record(pubkey: string, sha256: string, facts: BlobFacts, held: HeldBlob): Promise<void> {
    return this.changes.run(() => {
      if (!this.db.blobs.get(sha256)) void this.db.blobs.put(sha256, facts);
      void this.db.blobsByOwner.put([pubkey, sha256], held);
      void this.db.blobHolders.put([sha256, pubkey], true);
    });
  }

  /** Forgets one user's copy; the blob itself once nobody holds it. */
  forget(pubkey: string, sha256: string): Promise<void> {
    return this.changes.run(() => {
      void this.db.blobsByOwner.remove([pubkey, sha256]);
      void this.db.blobHolders.remove([sha256, pubkey]);
      if (!this.isHeld(sha256)) void this.db.blobs.remove(sha256);
    });
  }
}
