import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { parsedCid } from './cid-text.js';
import { leafFraming } from './file-leaves.js';

/** Kubo's `ipfs add` defaults (embedded.ts): fixed chunks of this size, at most this many links per node. */
const CHUNK_SIZE = 262_144;
const MAX_LINKS = 174;

export interface FileLeaf {
  cid: string;
  /** Bytes of the file in this leaf. */
  size: number;
  /** Length of the leaf's block: its link's Tsize. */
  blockSize: number;
}

/** A file stored as one level of leaves under a root (or one leaf alone), as `ipfs add` lays it out. */
export interface FileLayout {
  cid: string;
  size: number;
  /** Cumulative DAG size: what a directory links the file with (AddResult.dagSize). */
  dagSize: number;
  leaves: FileLeaf[];
  /**
   * The bytes of the last leaf (a view of its block, which is never changed), so that the next rewrite of the
   * end does not read them back.
   */
  tail: Uint8Array;
}

export interface LeafIo {
  /** Stores a dag-pb block, answers its CIDv0 (ContentStore.putBlock). */
  put(block: Uint8Array): Promise<string>;
  /** The bytes of a leaf of an earlier layout. */
  readLeaf(leaf: FileLeaf): Promise<Uint8Array>;
}

/**
 * The leaves of the bytes `parts` hold end to end, each framed as Kubo frames it with its data copied once,
 * straight from the parts into the block (no joined copy of the parts first); and the last leaf's data, a
 * view of its block.
 */
async function putLeaves(
  parts: readonly Uint8Array[],
  io: Pick<LeafIo, 'put'>,
): Promise<{ leaves: FileLeaf[]; tail: Uint8Array }> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const blocks: { block: Buffer; data: Uint8Array }[] = [];
  let part = 0;
  let offset = 0;
  for (let at = 0; at < total; at += CHUNK_SIZE) {
    const length = Math.min(CHUNK_SIZE, total - at);
    const { prefix, suffix } = leafFraming(length);
    const block = Buffer.allocUnsafe(prefix.length + length + suffix.length);
    prefix.copy(block, 0);
    let filled = prefix.length;
    const end = prefix.length + length;
    while (filled < end) {
      const source = parts[part]!;
      const taken = Math.min(source.length - offset, end - filled);
      block.set(source.subarray(offset, offset + taken), filled);
      filled += taken;
      offset += taken;
      if (offset === source.length) {
        part += 1;
        offset = 0;
      }
    }
    suffix.copy(block, end);
    blocks.push({ block, data: block.subarray(prefix.length, end) });
  }
  const leaves = await Promise.all(
    blocks.map(async ({ block, data }) => ({
      cid: await io.put(block),
      size: data.length,
      blockSize: block.length,
    })),
  );
  return { leaves, tail: blocks.at(-1)?.data ?? new Uint8Array() };
}

/** The root over `leaves`, or the leaf itself when there is one (the importer's reduceSingleLeafToSelf). */
async function layoutOf(
  leaves: FileLeaf[],
  tail: Uint8Array,
  io: Pick<LeafIo, 'put'>,
): Promise<FileLayout | null> {
  if (leaves.length === 0 || leaves.length > MAX_LINKS) return null;
  const size = leaves.reduce((sum, leaf) => sum + leaf.size, 0);
  if (leaves.length === 1) return { cid: leaves[0]!.cid, size, dagSize: leaves[0]!.blockSize, leaves, tail };
  const unixfs = new UnixFS({ type: 'file', blockSizes: leaves.map((leaf) => BigInt(leaf.size)) });
  const root = dagPb.encode({
    Data: unixfs.marshal(),
    Links: leaves.map((leaf) => ({ Hash: parsedCid(leaf.cid), Name: '', Tsize: leaf.blockSize })),
  });
  const dagSize = leaves.reduce((sum, leaf) => sum + leaf.blockSize, root.length);
  return { cid: await io.put(root), size, dagSize, leaves, tail };
}

/**
 * A whole file, stored with the CID `ipfs add` gives it. Null when it is empty or needs more than one level
 * of links (past 174 leaves, about 45 MB): the importer builds those.
 */
export async function buildFile(bytes: Uint8Array, io: Pick<LeafIo, 'put'>): Promise<FileLayout | null> {
  if (bytes.length > CHUNK_SIZE * MAX_LINKS) return null;
  const { leaves, tail } = await putLeaves([bytes], io);
  return layoutOf(leaves, tail, io);
}

/**
 * The file made of the first `keep` bytes of `previous` and then `suffix`, with the CID a whole import of
 * those bytes gives: the leaves before the one holding byte `keep` are kept as they are (fixed-size chunks
 * do not move), that one is read back (or taken from `previous.tail`), and only what follows is chunked and
 * stored again. Null where
 * buildFile gives null.
 */
export async function rewriteTail(
  previous: FileLayout,
  keep: number,
  suffix: Uint8Array,
  io: LeafIo,
): Promise<FileLayout | null> {
  if (keep < 0 || keep > previous.size) throw new RangeError(`cannot keep ${keep} of ${previous.size} bytes`);
  if (keep + suffix.length > CHUNK_SIZE * MAX_LINKS) return null;
  const first = Math.floor(keep / CHUNK_SIZE);
  const within = keep - first * CHUNK_SIZE;
  const parts = [suffix];
  if (within > 0) {
    const last = first === previous.leaves.length - 1;
    const leaf = last ? previous.tail : await io.readLeaf(previous.leaves[first]!);
    parts.unshift(leaf.subarray(0, within));
  }
  const rewritten = await putLeaves(parts, io);
  const leaves = [...previous.leaves.slice(0, first), ...rewritten.leaves];
  // Nothing rewritten (an empty suffix at a leaf boundary): the last leaf kept is the previous file's last.
  if (rewritten.leaves.length === 0)
    return layoutOf(
      leaves,
      first === previous.leaves.length ? previous.tail : await io.readLeaf(leaves.at(-1)!),
      io,
    );
  return layoutOf(leaves, rewritten.tail, io);
}
