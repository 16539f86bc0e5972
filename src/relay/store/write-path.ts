import type { NostrEvent } from 'nostr-tools';
import { deletionTargets, parseCoordinate } from '../../nostr/nip09.js';
import { isExpired } from '../../nostr/nip40.js';
import type { PutResult } from './event-store.js';
import {
  addToCount,
  coordinateKey,
  eventCoordinate,
  removeEvent,
  writeIndexes,
  type StoreDbs,
} from './indexes.js';

/** Called inside the write transaction once the event record is written, before its indexes (test hook). */
export type BeforeWrite = (operation: 'put' | 'sweep') => void;

function refused(reason: 'duplicate' | 'replaced' | 'deleted' | 'expired', message: string): PutResult {
  return { stored: false, reason, message };
}

/** NIP-01: the newer version wins; at the same second the lower id wins. */
function supersedes(a: NostrEvent, b: NostrEvent): boolean {
  return a.created_at > b.created_at || (a.created_at === b.created_at && a.id < b.id);
}

/**
 * Decides and writes one event. Runs inside one LMDB write transaction: the checks read what the transaction
 * sees, so puts in flight together (or from another process) can't both win a coordinate.
 */
export function applyEvent(
  dbs: StoreDbs,
  event: NostrEvent,
  now: number,
  beforeWrite?: BeforeWrite,
): PutResult {
  if (isExpired(event, now)) return refused('expired', 'event has expired');
  if (dbs.events.get(event.id) !== undefined) return refused('duplicate', 'already have this event');
  if (dbs.deletedIds.get([event.id, event.pubkey]) !== undefined) {
    return refused('deleted', 'this event was deleted by its author');
  }
  const coordinate = eventCoordinate(event);
  if (coordinate) {
    const deletedAt = dbs.deletedCoordinates.get(coordinate);
    if (deletedAt !== undefined && event.created_at <= deletedAt) {
      return refused('deleted', 'this address was deleted by its author');
    }
    const currentId = dbs.coordinates.get(coordinate);
    const current = currentId === undefined ? undefined : dbs.events.get(currentId);
    if (current && supersedes(current, event))
      return refused('replaced', 'have a newer version of this event');
    if (current) removeEvent(dbs, current);
  }
  void dbs.events.put(event.id, event);
  beforeWrite?.('put');
  writeIndexes(dbs, event);
  addToCount(dbs, 1);
  if (event.kind === 5) applyDeletion(dbs, event);
  return { stored: true };
}

/** NIP-09: removes the author's own events named by `e` tags and `a` coordinates, and remembers them. */
function applyDeletion(dbs: StoreDbs, deletion: NostrEvent): void {
  const { ids, coordinates } = deletionTargets(deletion);
  for (const id of ids) {
    void dbs.deletedIds.put([id, deletion.pubkey], deletion.id);
    const target = dbs.events.get(id);
    // A deletion of a deletion has no effect (NIP-09); another author's event is not ours to delete.
    if (target && target.pubkey === deletion.pubkey && target.kind !== 5) removeEvent(dbs, target);
  }
  for (const text of coordinates) {
    const parsed = parseCoordinate(text);
    if (!parsed) continue;
    const key = coordinateKey(parsed.kind, parsed.pubkey, parsed.d);
    const previous = dbs.deletedCoordinates.get(key);
    if (previous === undefined || previous < deletion.created_at) {
      void dbs.deletedCoordinates.put(key, deletion.created_at);
    }
    const currentId = dbs.coordinates.get(key);
    const current = currentId === undefined ? undefined : dbs.events.get(currentId);
    if (current && current.pubkey === deletion.pubkey && current.created_at <= deletion.created_at) {
      removeEvent(dbs, current);
    }
  }
}
