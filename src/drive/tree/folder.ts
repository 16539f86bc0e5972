import { UnixFS } from 'ipfs-unixfs';
import * as dagPb from '@ipld/dag-pb';
import { encodeDirectory, linksOf, type DirectoryLink } from '../store/dag.js';
import type { FolderRef } from '../db/records.js';
import type { NodeStore } from './nodes.js';
import { ShardEditor } from './shard.js';

/**
 * A category folder stays a plain UnixFS directory (what `ipfs add -r` makes of it) while its links' names and
 * CIDs add up to at most this many bytes (Kubo's own estimate, store/dag.ts), about 35 files, and is a HAMT
 * shard of FOLDER_FANOUT past it: a change then re-encodes the few small nodes on its path instead of a
 * folder that grows with the drive (up to 256 KiB before Kubo would shard it). The choice depends on the
 * folder's links alone, so its CID does too. See docs/decisions.md, "The drive's published tree".
 */
export const PLAIN_FOLDER_MAX_ESTIMATE = 2048;

/** 16 slots a node: a path of small nodes (at most about 1 KiB each) down to any name. */
export const FOLDER_FANOUT = 8;

/** Bytes of a CIDv0 in Kubo's estimate (its multihash). */
const CID_V0_BYTES = 34;

export const linkEstimate = (name: string) => Buffer.byteLength(name, 'utf8') + CID_V0_BYTES;

/** The empty folder (a plain directory with no links), the same in every drive. */
export async function emptyFolder(store: NodeStore): Promise<FolderRef> {
  const node = await encodeDirectory([]);
  await store.putKnown(node.cid, node.bytes);
  return { cid: node.cid, dagSize: node.dagSize, estimate: 0 };
}

function isShard(node: dagPb.PBNode): boolean {
  return node.Data !== undefined && UnixFS.unmarshal(node.Data).type === 'hamt-sharded-directory';
}

/** Every link of a stored folder, plain or sharded. */
async function allLinks(store: NodeStore, cid: string): Promise<DirectoryLink[]> {
  const node = dagPb.decode(await store.get(cid));
  if (isShard(node)) return new ShardEditor(store, FOLDER_FANOUT).entries(cid);
  return linksOf(node);
}

async function plain(
  store: NodeStore,
  links: readonly DirectoryLink[],
  estimate: number,
): Promise<FolderRef> {
  const node = await encodeDirectory(links);
  await store.putKnown(node.cid, node.bytes);
  return { cid: node.cid, dagSize: node.dagSize, estimate };
}

/**
 * The folder `previous` becomes once the names in `remove` are taken out and the links in `add` put in (a name
 * there is replaced). A shard that stays a shard is edited along the changed names' paths; any other case
 * (small folders, and a folder crossing the threshold either way) is encoded from all its links.
 */
export async function editFolder(
  store: NodeStore,
  previous: FolderRef,
  add: readonly DirectoryLink[],
  remove: readonly string[],
): Promise<FolderRef> {
  if (add.length === 0 && remove.length === 0) return previous;
  const before = await store.get(previous.cid);
  const decoded = dagPb.decode(before);
  const wasShard = isShard(decoded);
  const shards = new ShardEditor(store, FOLDER_FANOUT);
  // The caller removes names the folder holds and adds names it then lacks (DriveView): the estimate follows.
  let estimate = previous.estimate;
  for (const name of remove) estimate -= linkEstimate(name);
  for (const link of add) estimate += linkEstimate(link.name);
  const shardAfter = estimate > PLAIN_FOLDER_MAX_ESTIMATE;
  if (wasShard && shardAfter && ShardEditor.fanoutOf(decoded) === FOLDER_FANOUT) {
    const edited = await shards.edit(previous.cid, add, remove);
    return { ...edited, estimate };
  }
  const links = wasShard ? await allLinks(store, previous.cid) : linksOf(decoded);
  const current = new Map(links.map((l) => [l.name, l]));
  for (const name of remove) current.delete(name);
  for (const link of add) current.set(link.name, { ...link });
  const all = [...current.values()];
  estimate = all.reduce((sum, l) => sum + linkEstimate(l.name), 0);
  if (estimate > PLAIN_FOLDER_MAX_ESTIMATE) return { ...(await shards.build(all)), estimate };
  return plain(store, all, estimate);
}

/** A folder holding `links` (names unique), built whole. */
export async function buildFolder(store: NodeStore, links: readonly DirectoryLink[]): Promise<FolderRef> {
  const estimate = links.reduce((sum, l) => sum + linkEstimate(l.name), 0);
  if (estimate > PLAIN_FOLDER_MAX_ESTIMATE)
    return { ...(await new ShardEditor(store, FOLDER_FANOUT).build(links)), estimate };
  return plain(store, links, estimate);
}
