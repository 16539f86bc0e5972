import * as dagPb from '@ipld/dag-pb';
import { murmur3128 } from '@multiformats/murmur3';
import { Bucket, createHAMT } from 'hamt-sharding';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { parsedCid, type DirectoryLink } from './dag.js';

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

/**
 * The HAMT-sharded directory `ipfs add -r` makes of a folder with these entries (names must be unique).
 * Every node, sub-shards first, goes through `put`; a parent links each child by the CID `put` returned.
 */
export async function encodeShardedDirectory(
  links: readonly DirectoryLink[],
  put: PutNode,
): Promise<ShardedDirectory> {
  const root = createHAMT<Target>({ hashFn: hamtHash, bits: FANOUT_BITS });
  for (const link of links) await root.put(link.name, { cid: parsedCid(link.cid), dagSize: link.dagSize });
  return encodeBucket(root, put);
}

async function encodeBucket(bucket: Bucket<Target>, put: PutNode): Promise<ShardedDirectory> {
  const slots = bucket._children;
  const width = (bucket.tableSize() - 1).toString(16).length;
  const pbLinks: dagPb.PBLink[] = [];
  for (let slot = 0; slot < slots.length; slot++) {
    const child = slots.get(slot);
    if (child == null) continue;
    const prefix = slot.toString(16).toUpperCase().padStart(width, '0');
    if (child instanceof Bucket) {
      const shard = await encodeBucket(child, put);
      pbLinks.push({ Name: prefix, Hash: CID.parse(shard.cid), Tsize: shard.dagSize });
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
  return { cid, dagSize };
}
