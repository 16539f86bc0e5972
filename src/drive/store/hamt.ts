import * as dagPb from '@ipld/dag-pb';
import { murmur3128 } from '@multiformats/murmur3';
import { Bucket, createHAMT } from 'hamt-sharding';
import { UnixFS } from 'ipfs-unixfs';
import { LRUCache } from 'lru-cache';
import type { CID } from 'multiformats/cid';
import { parsedCid } from './cid-text.js';
import type { DirectoryLink } from './dag.js';

/**
 * HAMT-sharded UnixFS directories, as Kubo (go-unixfs / boxo `io.HAMTDirectory`) and ipfs-unixfs-importer
 * write them: the layout below follows node_modules/ipfs-unixfs-importer/dist/src/dir-sharded.js (`flush`)
 * and is read back by node_modules/ipfs-unixfs-exporter/dist/src/exporters/unixfs-v1/content/
 * hamt-sharded-directory.js and walk-path/utils/find-cid-in-shard.js.
 *
 * - Each name is hashed with murmur3-x64-64 (multihash code 0x22): the first 8 bytes of murmur3-x64-128,
 *   byte-reversed, as Go's implementation does. Each level of the trie consumes 8 bits of that hash
 *   (fanout 256); hamt-sharding rehashes the same way if 64 bits ever run out.
 * - A node's links are, in slot order, `XX<name>` for an entry alone in its slot and `XX` for a sub-shard
 *   (slot index in upper-case hex, padded to the width of `fanout - 1`, i.e. 2 digits).
 * - Its Data is a UnixFS `hamt-sharded-directory` with `fanout` 256, `hashType` 0x22 and as `data` the
 *   slot-occupancy bitfield, little-endian (hamt-sharding's big-endian bitfield reversed).
 * - Tsize of each link is the child's cumulative DAG size; a node's own size is its bytes plus those.
 *
 * The trie built from a set of names does not depend on their order, so neither does the root CID.
 */

/** Fanout 2^8 = 256: Kubo's `DefaultShardWidth`, the importer's `DEFAULT_SHARD_FANOUT_BITS`. */
const FANOUT_BITS = 8;
/** Multihash code of murmur3-x64-64, recorded in every shard node. */
const MURMUR3_X64_64 = 0x22n;

export interface ShardedDirectory {
  cid: string;
  /** Cumulative DAG size of the whole shard tree, for the parent's link. */
  dagSize: number;
}

/** Stores one encoded node and returns the CID the store computed for it. */
export type PutNode = (bytes: Uint8Array) => Promise<string>;

interface Target {
  cid: CID;
  dagSize: number;
}

async function hamtHash(bytes: Uint8Array): Promise<Uint8Array> {
  return (await murmur3128.encode(bytes)).slice(0, 8).reverse();
}

/** A shard's trie, and the encoding of each of its nodes not changed since it was last encoded. */
interface Shard {
  root: Bucket<Target>;
  encoded: WeakMap<Bucket<Target>, ShardedDirectory>;
  /** Names in the trie: what it costs to keep it. */
  names: number;
}

/**
 * The tries of the shards encoded lately, by root CID. A shard's next version is its trie with the new
 * names put in: only the nodes on their paths are encoded and stored again, the others are linked as they
 * were (they belong to the previous version, which its drive's root keeps pinned). A trie is taken out
 * before it is changed, so a CID never names a trie it no longer matches.
 */
const shardsByCid = new LRUCache<string, Shard>({
  maxSize: 200_000,
  sizeCalculation: (shard) => Math.max(1, shard.names),
});

const target = (link: DirectoryLink): Target => ({ cid: parsedCid(link.cid), dagSize: link.dagSize });

/**
 * The HAMT-sharded directory `ipfs add -r` makes of a folder with these entries (names must be unique).
 * Every node, sub-shards first, goes through `put`; a parent links each child by the CID `put` returned.
 */
export async function encodeShardedDirectory(
  links: readonly DirectoryLink[],
  put: PutNode,
): Promise<ShardedDirectory> {
  const shard: Shard = {
    root: createHAMT<Target>({ hashFn: hamtHash, bits: FANOUT_BITS }),
    encoded: new WeakMap(),
    names: links.length,
  };
  for (const link of links) await shard.root.put(link.name, target(link));
  return encodeShard(shard, put);
}

/**
 * The shard `previous` becomes with the links of `added` put in (a name already there keeps its link, as the
 * drive's list after a change has it), or null when `previous` is not a shard encoded lately. The same nodes
 * as `encodeShardedDirectory` of the whole list (a trie does not depend on the order names came in);
 * removals are left to that whole encoding, because a trie emptied in place is not always the one
 * `ipfs add -r` builds from what remains.
 */
export async function editShardedDirectory(
  previous: string,
  added: readonly DirectoryLink[],
  put: PutNode,
): Promise<ShardedDirectory | null> {
  const shard = shardsByCid.get(previous);
  if (!shard) return null;
  shardsByCid.delete(previous);
  for (const link of added) {
    if ((await shard.root.get(link.name)) !== undefined) continue;
    await shard.root.put(link.name, target(link));
    shard.names += 1;
    let changed: Bucket<Target> | undefined = (await shard.root._findPlace(link.name)).bucket;
    for (; changed; changed = changed._parent) shard.encoded.delete(changed);
  }
  return encodeShard(shard, put);
}

async function encodeShard(shard: Shard, put: PutNode): Promise<ShardedDirectory> {
  const result = await encodeBucket(shard.root, put, shard.encoded);
  shardsByCid.set(result.cid, shard);
  return result;
}

async function encodeBucket(
  bucket: Bucket<Target>,
  put: PutNode,
  encoded: Shard['encoded'],
): Promise<ShardedDirectory> {
  const known = encoded.get(bucket);
  if (known) return known;
  const slots = bucket._children;
  const width = (bucket.tableSize() - 1).toString(16).length;
  const pbLinks: dagPb.PBLink[] = [];
  for (let slot = 0; slot < slots.length; slot++) {
    const child = slots.get(slot);
    if (child == null) continue;
    const prefix = slot.toString(16).toUpperCase().padStart(width, '0');
    if (child instanceof Bucket) {
      const shard = await encodeBucket(child, put, encoded);
      pbLinks.push({ Name: prefix, Hash: parsedCid(shard.cid), Tsize: shard.dagSize });
    } else {
      pbLinks.push({ Name: prefix + child.key, Hash: child.value.cid, Tsize: child.value.dagSize });
    }
  }
  const data = new UnixFS({
    type: 'hamt-sharded-directory',
    data: Uint8Array.from(slots.bitField().reverse()),
    fanout: BigInt(bucket.tableSize()),
    hashType: MURMUR3_X64_64,
  });
  const bytes = dagPb.encode(dagPb.prepare({ Data: data.marshal(), Links: pbLinks }));
  const cid = await put(bytes);
  const dagSize = pbLinks.reduce((sum, link) => sum + (link.Tsize ?? 0), bytes.length);
  const node = { cid, dagSize };
  encoded.set(bucket, node);
  return node;
}
