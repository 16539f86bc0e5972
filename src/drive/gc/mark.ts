import { setImmediate as nextTurn } from 'node:timers/promises';
import * as dagPb from '@ipld/dag-pb';
import { currentGen, type DriveDb } from '../db/drive-db.js';
import { linksNothing } from '../tree/nodes.js';

/** Nodes walked between two turns of the event loop: a collection never holds the loop for long. */
const NODES_PER_TURN = 2_000;

export interface Marked {
  /** Every CID reachable from a root, held or not. */
  live: Set<string>;
  /** The last change committed before the roots were read: what came after is spared whatever the walk saw. */
  gen: number;
}

/** Reads a block for the walk: small blocks from LMDB, or (blocks of earlier versions) from files. */
export type BlockReader = (cid: string) => Promise<Uint8Array | undefined>;

/**
 * The roots a collection keeps: every drive's current root, every CID drive files and media keep
 * (`pinRefs`: wrappers, media folders), explicit pins, and every CID handed out since `keptSince`.
 */
export function rootsOf(db: DriveDb, keptSince: number): string[] {
  const roots = new Set<string>();
  for (const { value } of db.drives.getRange()) if (value.root) roots.add(value.root);
  for (const key of db.pinRefs.getKeys()) roots.add(key);
  for (const key of db.pins.getKeys()) roots.add(key);
  for (const { key, value } of db.roots.getRange()) if (value >= keptSince) roots.add(key);
  return [...roots];
}

/**
 * Marks what the roots reach. The change counter is read before the roots, so that every block written or
 * reused after it carries a later number and is spared by the sweep (sweep.ts) whether or not this walk saw
 * it: a change committed while the collection runs never loses a block. Leaves are not read: a held file's
 * leaf is known by its record, and a block's first byte says whether it links anything.
 */
export async function markLive(db: DriveDb, keptSince: number, read: BlockReader): Promise<Marked> {
  const gen = currentGen(db);
  const live = new Set<string>();
  const pending = rootsOf(db, keptSince);
  let walked = 0;
  for (let cid = pending.pop(); cid !== undefined; cid = pending.pop()) {
    if (live.has(cid)) continue;
    live.add(cid);
    if (++walked % NODES_PER_TURN === 0) await nextTurn();
    if (db.fileLeaves.doesExist(cid)) continue;
    const bytes = db.blocks.getBinaryFast(cid) ?? (await read(cid));
    if (!bytes || linksNothing(bytes)) continue;
    for (const link of dagPb.decode(bytes).Links) pending.push(link.Hash.toString());
  }
  return { live, gen };
}
