import { setImmediate as nextTurn } from 'node:timers/promises';
import * as dagPb from '@ipld/dag-pb';
import type { DriveDb } from '../db/drive-db.js';
import { linksNothing } from '../tree/nodes.js';

/** Nodes walked between two turns of the event loop: a collection never holds the loop for long. */
const NODES_PER_TURN = 2_000;

export interface Marked {
  /** Every CID reachable from a root, held or not. */
  live: Set<string>;
  /** The last change committed before the roots were read: what came after is spared whatever the walk saw. */
  gen: number;
  /**
   * The state the walk read (a read transaction, done once the sweep ends): the sweep looks only at the keys
   * it holds, so a block written since is never even a candidate.
   */
  snapshot: ReturnType<DriveDb['root']['useReadTransaction']>;
}

/** Reads a block for the walk: small blocks from LMDB, or (blocks of earlier versions) from files. */
export type BlockReader = (cid: string) => Promise<Uint8Array | undefined>;

/**
 * The roots a collection keeps: every drive's current root, every CID drive files and media keep
 * (`pinRefs`: wrappers, media folders), explicit pins, and every CID handed out since `keptSince`.
 */
export function rootsOf(db: DriveDb, keptSince: number, at: Pick<Marked, 'snapshot'>): string[] {
  const transaction = at.snapshot;
  const roots = new Set<string>();
  for (const { value } of db.drives.getRange({ transaction })) if (value.root) roots.add(value.root);
  for (const key of db.pinRefs.getKeys({ transaction })) roots.add(key);
  for (const key of db.pins.getKeys({ transaction })) roots.add(key);
  for (const { key, value } of db.roots.getRange({ transaction })) if (value >= keptSince) roots.add(key);
  return [...roots];
}

/**
 * Marks what the roots reach, in one snapshot of the index. A change committed after it either writes new
 * blocks (not in the snapshot, so never swept) or reuses blocks that are, and then gives them its later
 * change number, which the sweep (sweep.ts) spares: a change committed while the collection runs never loses
 * a block. Leaves are not read: a held file's leaf is known by its record, and a block's first byte says
 * whether it links anything. The caller ends `snapshot` (`done()`).
 */
export async function markLive(db: DriveDb, keptSince: number, read: BlockReader): Promise<Marked> {
  const snapshot = db.root.useReadTransaction();
  const at = { transaction: snapshot };
  const gen = (db.meta.get('gen', at) as number | undefined) ?? 0;
  const live = new Set<string>();
  const pending = rootsOf(db, keptSince, { snapshot });
  let walked = 0;
  for (let cid = pending.pop(); cid !== undefined; cid = pending.pop()) {
    if (live.has(cid)) continue;
    live.add(cid);
    if (++walked % NODES_PER_TURN === 0) await nextTurn();
    if (db.fileLeaves.get(cid, at) !== undefined) continue;
    const bytes = db.blocks.get(cid, at) ?? (await read(cid));
    if (!bytes || linksNothing(bytes)) continue;
    for (const link of dagPb.decode(bytes).Links) pending.push(link.Hash.toString());
  }
  return { live, gen, snapshot };
}
