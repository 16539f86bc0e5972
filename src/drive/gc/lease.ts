import { holderIsGone, processInstance } from '../../process/identity.js';
import type { DriveDb } from '../db/drive-db.js';
import { handled } from '../db/commit-error.js';

const LEASE_KEY = 'gc:lease';

interface Lease {
  holder: string;
  /** Unix ms after which another process may take it even if the holder seems alive. */
  until: number;
}

/**
 * One collection at a time across the processes sharing the store (PM2 workers, `station gc`): taken in a
 * transaction, given back at the end, taken over when its holder died or let it run out.
 */
export async function takeLease(db: DriveDb, now: number, forMs: number): Promise<boolean> {
  return (await handled(
    db.root.childTransaction(() => {
      const held = db.meta.get(LEASE_KEY) as Lease | undefined;
      if (held && held.holder !== processInstance && held.until > now && !holderIsGone(held.holder))
        return false;
      void db.meta.put(LEASE_KEY, { holder: processInstance, until: now + forMs } satisfies Lease);
      return true;
    }),
  )) as boolean;
}

export async function releaseLease(db: DriveDb): Promise<void> {
  await handled(
    db.root.childTransaction(() => {
      const held = db.meta.get(LEASE_KEY) as Lease | undefined;
      if (held?.holder === processInstance) void db.meta.remove(LEASE_KEY);
    }),
  );
}
