import { setImmediate as nextTurn } from 'node:timers/promises';
import { open } from 'lmdb';
import type { NostrEvent } from 'nostr-tools';
import { nip77 } from 'nostr-tools';
import { MAX_DBS, openDbs, type StoreDbs } from '../relay/store/indexes.js';
import { readIdPairs } from '../relay/store/id-pairs.js';
import { SWARM_KINDS } from './kinds.js';

/** What a sister's sync reads of the station's own store. */
export interface LocalEvents {
  /** The (created_at, id) pairs of the swarm's kinds, sealed for a NIP-77 reconciliation. */
  storage(now: number): Promise<nip77.NegentropyStorageVector>;
  /** A stored event of the swarm's kinds, by id (never a kind 22242). */
  event(id: string): NostrEvent | undefined;
  close(): Promise<void>;
}

/** Records read for one reconciliation at most (the relay's own NEG-OPEN bound). */
const MAX_RECORDS = 500_000;

/**
 * A read-only handle on the embedded relay's store (lmdb-js shares the environment with the relay thread, as
 * src/relay/store/signatures.ts does): pairs come off the kind index, only for SWARM_KINDS, so kind 22242 is
 * never read here.
 */
export function openLocalEvents(path: string): LocalEvents {
  const root = open({ path, noSubdir: false, maxDbs: MAX_DBS, readOnly: true });
  const dbs: StoreDbs = openDbs(root);
  const kinds = new Set(SWARM_KINDS);
  let closed = false;
  return {
    async storage(now) {
      const storage = new nip77.NegentropyStorageVector();
      const pairs = readIdPairs(dbs, { kinds: [...SWARM_KINDS] }, MAX_RECORDS, now);
      // A page per event-loop turn: a large store never holds the API's thread for long.
      while (!closed) {
        const page = pairs.next(4_096);
        if (page.length === 0) break;
        for (const [at, id] of page) storage.insert(at, id);
        await nextTurn();
      }
      storage.seal();
      return storage;
    },
    event(id) {
      if (closed) return undefined;
      const event = dbs.events.get(id);
      return event && kinds.has(event.kind) ? event : undefined;
    },
    close: async () => {
      closed = true;
      await root.close();
    },
  };
}
