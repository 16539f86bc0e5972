import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { BufferImporter } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { leafBlock, leafCid } from './file-leaves.js';

/**
 * The importer's leaf builder, as Kubo makes leaves (dag-pb UnixFS `file` nodes, CIDv0), except that a
 * stored leaf no longer carries its data: the stock one keeps every chunk of a pending 174-link node in
 * memory (about 44 MB) until that node is built. The parent only needs each leaf's size, given here as a
 * one-entry block size list, which the importer reads exactly like the data's length: same bytes, same CIDs.
 */
export const leanLeaves: BufferImporter = async function* (file, blockstore) {
  for await (const data of file.content) {
    yield async () => {
      const { cid, block } = await buildLeaf(data);
      await blockstore.put(cid, block);
      const unixfs = new UnixFS({ type: 'file', blockSizes: [BigInt(data.length)] });
      return { cid, unixfs, size: BigInt(block.length), block };
    };
  }
};

/**
 * One chunk as Kubo stores it: a dag-pb node holding a UnixFS `file` with the data, addressed by CIDv0. The
 * data is framed as file-leaves.ts does (one copy, hashed in place) rather than marshalled and encoded (two
 * copies of every chunk); an empty chunk, which that framing does not cover, is encoded.
 */
export async function buildLeaf(data: Uint8Array): Promise<{ cid: CID; block: Uint8Array }> {
  if (data.byteLength === 0) {
    const block = dagPb.encode({ Data: new UnixFS({ type: 'file', data }).marshal(), Links: [] });
    return { cid: CID.createV0(await sha256.digest(block)), block };
  }
  return { cid: leafCid(data), block: leafBlock(data) };
}
