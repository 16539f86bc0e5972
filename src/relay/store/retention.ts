import type { Key } from 'lmdb';
import type { NostrEvent } from 'nostr-tools';
import { ID_MAX, removeEvent, storedCount, type StoreDbs } from './indexes.js';
import type { BeforeWrite } from './write-path.js';

/** Ids at the start of an index range; collected before removing, so no cursor walks keys being deleted. */
function firstIds(keys: Iterable<Key[]>, limit: number): string[] {
  const ids: string[] = [];
  for (const key of keys) {
    if (ids.length >= limit) break;
    ids.push(key[key.length - 1] as string);
  }
  return ids;
}

function removeIds(dbs: StoreDbs, ids: string[]): number {
  let removed = 0;
  for (const id of ids) {
    const event: NostrEvent | undefined = dbs.events.get(id);
    if (!event) continue;
    removeEvent(dbs, event);
    removed++;
  }
  return removed;
}

/**
 * One sweep, inside one write transaction: expired events first (NIP-40, through the expiration index), then,
 * above `maxEvents`, the oldest by created_at, at most `batch` in all. Tombstones stay: a deleted event must
 * not come back after its deletion request is evicted.
 */
export function sweepBatch(
  dbs: StoreDbs,
  now: number,
  batch: number,
  maxEvents: number,
  beforeWrite?: BeforeWrite,
): number {
  if (batch <= 0) return 0;
  const expired = firstIds(dbs.byExpiration.getKeys({ end: [now, ID_MAX] }) as Iterable<Key[]>, batch);
  let removed = removeIds(dbs, expired);
  if (removed > 0) beforeWrite?.('sweep');
  const excess = Math.min(batch - removed, storedCount(dbs) - maxEvents);
  if (excess > 0) {
    removed += removeIds(dbs, firstIds(dbs.byTime.getKeys() as Iterable<Key[]>, excess));
    beforeWrite?.('sweep');
  }
  return removed;
}
