import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { base32upper } from 'multiformats/bases/base32';
import { CID } from 'multiformats/cid';
import { decode as decodeDigest } from 'multiformats/hashes/digest';
import type { Database } from 'lmdb';
import type { DriveDb } from '../db/drive-db.js';
import { mayBeInFlight } from '../store/held-files.js';
import { handled } from '../db/commit-error.js';
import type { Marked } from './mark.js';

/** Keys looked at, and removed, per transaction: short transactions beside live uploads. */
const KEYS_PER_TRANSACTION = 1_000;

/**
 * A held file nothing names yet may be an import waiting for its change to commit (store/held-files.ts): this
 * process knows its own; another running process's is spared when linked less than this long ago (an import
 * waits for its change a second or two).
 */
export const OTHER_IMPORT_MS = 15 * 60_000;

export interface SweepReport {
  blocks: number;
  bytes: number;
  leaves: number;
  files: number;
  legacyBlocks: number;
}

/**
 * Removes from `table` the keys of the walk's snapshot it did not reach and no change reused since (a reuse
 * records a `blockGen` above `marked.gen`), checked again inside each transaction; a change committed after a
 * removal writes the key anew (changes carry their blocks). Answers the keys and value bytes removed.
 */
async function sweepTable(
  db: DriveDb,
  table: Database<unknown, string>,
  marked: Marked,
  size: (key: string) => number,
): Promise<{ removed: number; bytes: number }> {
  let removed = 0;
  let bytes = 0;
  let after: string | undefined;
  for (;;) {
    const range = { start: after, limit: KEYS_PER_TRANSACTION, transaction: marked.snapshot };
    const keys = [...table.getKeys(range)].filter((k) => k !== after);
    if (keys.length === 0) break;
    after = keys.at(-1);
    const dead = keys.filter((key) => !marked.live.has(key));
    if (dead.length === 0) continue;
    const done = (await handled(
      db.root.childTransaction(() => {
        let count = 0;
        let freed = 0;
        for (const key of dead) {
          if ((db.blockGen.get(key) ?? 0) > marked.gen) continue;
          freed += size(key);
          void table.remove(key);
          void db.blockGen.remove(key);
          count += 1;
        }
        return { count, freed };
      }),
    )) as { count: number; freed: number };
    removed += done.count;
    bytes += done.freed;
  }
  return { removed, bytes };
}

/** Held files no leaf names, unless their import may still be waiting for its change (OTHER_IMPORT_MS). */
async function sweepHeldFiles(db: DriveDb, dir: string): Promise<number> {
  // In this order: the folder listed (a file linked later is not looked at), then which of its files may be
  // waiting for their change, then the leaves read: a change that committed in between is seen by the last.
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.'));
  const waiting = new Set<string>();
  for (const name of names) {
    const info = await stat(join(dir, name)).catch(() => null);
    if (!info || mayBeInFlight(name, Date.now() - info.ctimeMs, OTHER_IMPORT_MS)) waiting.add(name);
  }
  const named = new Set<string>();
  for (const { value } of db.fileLeaves.getRange()) named.add(value.file);
  let removed = 0;
  for (const name of names.filter((n) => !named.has(n) && !waiting.has(n))) {
    await unlink(join(dir, name)).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

/** Blocks of versions before 2026-11-25 in `<store>/blocks/` (blockstore-fs): removed when unreachable. */
async function sweepLegacyBlocks(dir: string, marked: Marked): Promise<number> {
  let removed = 0;
  for (const shard of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(join(dir, shard)).catch(() => [] as string[])) {
      if (!name.endsWith('.data')) continue;
      let cid: string;
      try {
        cid = CID.createV0(decodeDigest(base32upper.decode(name.slice(0, -5))) as never).toString();
      } catch {
        continue;
      }
      if (marked.live.has(cid)) continue;
      await unlink(join(dir, shard, name)).catch(() => undefined);
      removed += 1;
    }
  }
  return removed;
}

export async function sweepStore(db: DriveDb, storeDir: string, marked: Marked): Promise<SweepReport> {
  const blocks = await sweepTable(
    db,
    db.blocks as never,
    marked,
    (key) => db.blocks.getBinaryFast(key)?.length ?? 0,
  );
  const leaves = await sweepTable(db, db.fileLeaves as never, marked, () => 0);
  const files = await sweepHeldFiles(db, join(storeDir, 'files'));
  const legacyBlocks = await sweepLegacyBlocks(join(storeDir, 'blocks'), marked);
  // Change numbers of keys no table holds any more (a block removed, or written by a change with Kubo).
  await sweepTable(db, db.blockGen as never, marked, () => 0);
  marked.snapshot.done();
  return { blocks: blocks.removed, bytes: blocks.bytes, leaves: leaves.removed, files, legacyBlocks };
}
