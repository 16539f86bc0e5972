import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { NostrEvent } from 'nostr-tools';
import { isEventShaped, kindClass } from '../../nostr/event.js';
import type { EventStore, PutResult } from './event-store.js';

export interface ImportStats {
  /** Events stored. */
  imported: number;
  /** Lines skipped: not JSON (a torn last line), not an event, ephemeral, or a bad signature. */
  invalid: number;
  /** Valid events the store refused (duplicate, replaced, deleted, expired). */
  refused: number;
}

/** Puts in flight at once: lmdb-js commits them together, one fsync for the lot instead of one each. */
const WINDOW = 256;

/**
 * One-time migration of the old relay's JSON-lines journal: each line is checked (`verify`, as the events were
 * never stored by this store) and put, then the file becomes `<path>.imported` so the next start skips it.
 * A missing file imports nothing. A store write error stops the import and leaves the file in place; running
 * it again is harmless, as events already stored come back as duplicates.
 */
export async function importJournal(
  path: string,
  store: EventStore,
  verify: (event: NostrEvent) => boolean,
): Promise<ImportStats> {
  const stats: ImportStats = { imported: 0, invalid: 0, refused: 0 };
  let pending: Array<Promise<PutResult>> = [];
  const settle = async () => {
    const results = await Promise.all(pending);
    pending = [];
    for (const result of results) {
      if (result.stored) stats.imported++;
      else stats.refused++;
    }
  };
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        stats.invalid++;
        continue;
      }
      if (!isEventShaped(event) || kindClass(event.kind) === 'ephemeral' || !verify(event)) {
        stats.invalid++;
        continue;
      }
      pending.push(store.put(event));
      if (pending.length >= WINDOW) await settle();
    }
    await settle();
  } catch (error) {
    await Promise.allSettled(pending);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return stats;
    throw error;
  } finally {
    lines.close();
    input.destroy();
  }
  await rename(path, `${path}.imported`);
  return stats;
}
