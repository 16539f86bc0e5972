import { stat } from 'node:fs/promises';
import { open } from 'lmdb';
import type { NostrEvent } from 'nostr-tools';
import { isExpired } from '../../nostr/nip40.js';
import { ID_MAX, MAX_DBS, openDbs, STORE_SCHEMA as SCHEMA } from './indexes.js';

export interface ExportFilter {
  /** Oldest `created_at` exported (inclusive). */
  since?: number;
  /** Newest `created_at` exported (inclusive). */
  until?: number;
  kinds?: ReadonlySet<number>;
  /** Unix seconds for NIP-40: events expired by then are left out, as the relay no longer serves them. */
  now: number;
}

/** An event exactly as signed, its fields in NIP-01 order (the store keeps nothing else in the record). */
export function eventLine(event: NostrEvent): string {
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  return JSON.stringify({ id, pubkey, created_at, kind, tags, content, sig });
}

/**
 * The events of the embedded relay's LMDB store at `path`, oldest first, one at a time. The environment is
 * opened read-only: LMDB readers never block its writer, even in another process, so this runs beside a
 * live station. One read transaction covers the whole walk, so the export is a consistent snapshot; the
 * price of a long one is that pages the relay frees meanwhile are reused only after it ends.
 */
export async function* storedEvents(path: string, filter: ExportFilter): AsyncGenerator<NostrEvent> {
  const found = await stat(path).catch(() => null);
  if (!found?.isDirectory()) throw new Error(`no event store at ${path}`);
  const root = open({ path, noSubdir: false, maxDbs: MAX_DBS, readOnly: true });
  try {
    const dbs = openDbs(root);
    const schema = dbs.meta.get('schema');
    if (schema !== SCHEMA) throw new Error(`event store at ${path} has layout ${schema}, expected ${SCHEMA}`);
    const transaction = root.useReadTransaction();
    try {
      const range = {
        start: [filter.since ?? 0, ''],
        end: [filter.until ?? Number.MAX_SAFE_INTEGER, ID_MAX],
      };
      for (const key of dbs.byTime.getKeys({ ...range, transaction })) {
        const id = (key as [number, string])[1];
        const event = dbs.events.get(id, { transaction });
        if (!event || (filter.kinds && !filter.kinds.has(event.kind))) continue;
        if (isExpired(event, filter.now)) continue;
        yield event;
      }
    } finally {
      transaction.done();
    }
  } finally {
    await root.close();
  }
}
