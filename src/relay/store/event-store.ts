import type { Filter, NostrEvent } from 'nostr-tools';
import type { IdPairOptions, IdPairs } from './id-pairs.js';

/** Why `put` stored nothing; the relay turns these into NIP-01 `OK false` prefixes. */
export type RejectReason =
  | 'duplicate' // the same id is already stored
  | 'replaced' // a newer version of this replaceable / addressable event is stored
  | 'deleted' // a kind-5 event of the same author deleted this id or coordinate
  | 'expired'; // its NIP-40 expiration has passed

export type PutResult = { stored: true } | { stored: false; reason: RejectReason; message: string };

/** Thrown by `put` when the disk refuses the write (ENOSPC, EIO, map full): nothing of that event was kept. */
export class StoreWriteError extends Error {
  constructor(
    readonly code: 'STORE_FULL' | 'STORE_IO',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreWriteError';
  }
}

export interface StoreHealth {
  ok: boolean;
  /** Events currently stored (kept in a counter, never counted by a scan). */
  events: number;
  /** The last write error, until a later write succeeds. */
  error: string | null;
}

/**
 * The embedded relay's storage. Events arrive already verified (the relay checks each signature once, when it
 * is written): the store never verifies, so opening it costs the same with ten or two hundred thousand events.
 */
export interface EventStore {
  /**
   * Stores a regular, replaceable or addressable event (ephemeral kinds never reach the store). Replaceable
   * (0, 3, 10000–19999) and addressable (30000–39999) events replace older versions of the same coordinate;
   * kind 5 (NIP-09) deletes the same author's events named by `e` and `a` tags and is stored itself. Resolves
   * only once the event is durably on disk; rejects with StoreWriteError when the disk refuses it.
   */
  put(event: NostrEvent): Promise<PutResult>;
  /**
   * Events matching any of the filters (NIP-01: ids, authors, kinds, #e #p #t #g #d, since, until), newest
   * first, at most `limit` in all (each filter's own `limit`, capped by `limit`, applies to that filter).
   * Expired events (NIP-40) are never returned. Served from indexes: cost grows with the answer, not the store.
   */
  query(filters: Filter[], limit: number): NostrEvent[];
  /**
   * The (created_at, id) pairs of one filter's events, oldest first, read from the indexes a chunk at a time
   * without loading the events the index alone decides (NIP-77); more than `max` index entries set `over`.
   * Expired events are left out, and so are `hiddenKinds`; the filter's `limit` is ignored.
   */
  idsMatching(filter: Filter, max: number, options?: IdPairOptions): IdPairs;
  /**
   * Removes expired events and, above the retention cap, the oldest events, at most `batch` per call, so a
   * caller can run it on a timer without long pauses. Resolves with the number removed.
   */
  sweep(now: number, batch?: number): Promise<number>;
  /** The signature of a stored event, so events verified when written are not verified again after a restart. */
  signatureOf(id: string): string | undefined;
  health(): StoreHealth;
  close(): Promise<void>;
}
