import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { LRUCache } from 'lru-cache';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

export interface DirectoryLink {
  name: string;
  cid: string;
  /** Cumulative DAG size of the target (what `ipfs add -r` records). */
  dagSize: number;
}

export interface EncodedDirectory {
  cid: string;
  bytes: Uint8Array;
  /** Cumulative size: this node plus everything below it, for the parent's link. */
  dagSize: number;
}

/**
 * `ipfs add -r` writes a folder as a HAMT shard (see hamt.ts) once its estimated size is above 256 KiB.
 * The estimate is the sum over its links of the name's UTF-8 bytes plus the CID's bytes (34 for a CIDv0);
 * the Data field, Tsizes and protobuf framing are not counted. This is the `links-bytes` strategy that the
 * `unixfs-v0-2015` profile (Kubo's legacy CIDv0 defaults) selects in
 * node_modules/ipfs-unixfs-importer/dist/src/index.js, computed by `estimateNodeSize` in dir-flat.js and
 * compared in flat-to-shard.js as `estimate > shardSplitThresholdBytes` (262,144 in constants.js): a
 * folder exactly at 256 KiB stays plain (older Kubo releases, through go-unixfs, compared with `>=`: only
 * that exact size differs). test/drive/drive-fixture.ts (`addRecursiveCid`) is that importer.
 * Only category folders can get that large: the drive root (4 folders, 2 files) and wrappers never do.
 */
export const SHARDING_THRESHOLD_BYTES = 256 * 1024;

/** `ipfs add -r`'s size estimate of a plain directory with these links (UTF-8 names plus CID bytes). */
function shardingEstimate(links: readonly { Name: string; Hash: CID }[]): number {
  let bytes = 0;
  for (const link of links) bytes += Buffer.byteLength(link.Name, 'utf8') + link.Hash.bytes.length;
  return bytes;
}

/** Thrown by `encodeDirectory` for a folder that `ipfs add -r` would shard: use `encodeShardedDirectory`. */
export class DirectoryTooLargeError extends Error {
  readonly code = 'DIRECTORY_TOO_LARGE';
  constructor() {
    super('The directory is too large to be published without sharding.');
  }
}

/** Folders are re-encoded at every change of one of their files: their CIDs are decoded once, not each time. */
const cids = new LRUCache<string, CID>({ max: 50_000 });

export function parsedCid(text: string): CID {
  let cid = cids.get(text);
  if (!cid) cids.set(text, (cid = CID.parse(text)));
  return cid;
}

/** A UnixFS directory node exactly as `ipfs add -r` writes it (links sorted by name, CIDv0). */
export async function encodeDirectory(links: readonly DirectoryLink[]): Promise<EncodedDirectory> {
  // Each CID is parsed once: decoding base58 is most of the cost of a large folder.
  const pbLinks = links.map((link) => ({ Name: link.name, Hash: parsedCid(link.cid), Tsize: link.dagSize }));
  if (shardingEstimate(pbLinks) > SHARDING_THRESHOLD_BYTES) throw new DirectoryTooLargeError();
  const node = dagPb.prepare({ Data: new UnixFS({ type: 'directory' }).marshal(), Links: pbLinks });
  const bytes = dagPb.encode(node);
  const cid = CID.createV0(await sha256.digest(bytes));
  const dagSize = links.reduce((sum, link) => sum + link.dagSize, bytes.length);
  return { cid: cid.toString(), bytes, dagSize };
}

/** Whether `bytes` is a well-formed dag-pb node (what `putBlock` accepts). */
export function isDagPb(bytes: Uint8Array): boolean {
  try {
    dagPb.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
