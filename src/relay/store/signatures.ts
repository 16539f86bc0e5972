import { open } from 'lmdb';
import type { NostrEvent } from 'nostr-tools';
import { MAX_DBS } from './indexes.js';

/** Signatures of the events the embedded relay stored, read from the station's side of the relay thread. */
export interface EventSignatures {
  signatureOf(id: string): string | undefined;
  close(): Promise<void>;
}

/**
 * A read-only handle on the event store another thread writes (lmdb-js shares one environment between a
 * process's threads): the bot asks it whether an event it receives is the one the relay verified when storing
 * it, so no signature is checked twice (src/nostr/verify.ts). Opened after the relay thread created the store.
 */
export function openEventSignatures(path: string): EventSignatures {
  const root = open({ path, noSubdir: false, maxDbs: MAX_DBS, readOnly: true });
  const events = root.openDB<NostrEvent, string>('events', { encoding: 'msgpack' });
  let closed = false;
  return {
    signatureOf: (id) => (closed ? undefined : events.get(id)?.sig),
    close: async () => {
      closed = true;
      await root.close();
    },
  };
}
