import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { cidText, parsedCid } from './cid-text.js';
import { bytesFieldLength, varintLength, writeBytesField, writeVarint } from './varint.js';

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

/** Thrown by `encodeDirectory` for a folder that `ipfs add -r` would shard: use `encodeShardedDirectory`. */
export class DirectoryTooLargeError extends Error {
  readonly code = 'DIRECTORY_TOO_LARGE';
  constructor() {
    super('The directory is too large to be published without sharding.');
  }
}

/** A link of a directory node, encoded: the node is its links in name order, then its Data. */
export interface EncodedLink {
  name: Buffer;
  /** The link as a PBNode field 2 (tag, length, PBLink: Hash, Name, Tsize), as @ipld/dag-pb writes it. */
  field: Uint8Array;
  /** Its share of `ipfs add -r`'s sharding estimate: UTF-8 name plus CID bytes. */
  estimate: number;
  dagSize: number;
}

/**
 * One PBLink as PBNode field 2, written straight into its buffer: a drive upload encodes a few links (its
 * wrapper, the root's), and building them from spread byte arrays cost a few kilobytes of garbage each.
 */
function encodeLink(link: DirectoryLink): EncodedLink {
  const name = Buffer.from(link.name, 'utf8');
  const hash = parsedCid(link.cid).bytes;
  const linkLength =
    bytesFieldLength(hash.length) + bytesFieldLength(name.length) + 1 + varintLength(link.dagSize);
  const field = Buffer.allocUnsafe(bytesFieldLength(linkLength));
  let at = 0;
  field[at++] = 0x12;
  at = writeVarint(field, at, linkLength);
  at = writeBytesField(field, at, 0x0a, hash);
  at = writeBytesField(field, at, 0x12, name);
  field[at++] = 0x18;
  writeVarint(field, at, link.dagSize);
  return { name, field, estimate: name.length + hash.length, dagSize: link.dagSize };
}

/**
 * Links encoded once, by link object: a folder is encoded again at every change of one of its files, from the
 * same link objects (root.ts keeps one per drive entry), and encoding each (its name's UTF-8, its CID's
 * base58) was most of that.
 */
const encodedLinks = new WeakMap<DirectoryLink, EncodedLink>();

export function encodedLink(link: DirectoryLink): EncodedLink {
  let encoded = encodedLinks.get(link);
  if (!encoded) encodedLinks.set(link, (encoded = encodeLink(link)));
  return encoded;
}

/** PBNode field 1: the UnixFS Data of a plain directory. */
const DIRECTORY_DATA = (() => {
  const data = new UnixFS({ type: 'directory' }).marshal();
  const field = Buffer.allocUnsafe(bytesFieldLength(data.length));
  writeBytesField(field, 0, 0x0a, data);
  return field;
})();

/**
 * A UnixFS directory node exactly as `ipfs add -r` writes it: CIDv0, links sorted by the bytes of their
 * names, then the Data field (dag-pb's canonical form; test/drive/store/dag.test.ts checks it against
 * @ipld/dag-pb). Written from links encoded once, instead of through dag-pb's encoder, whose sort encodes
 * both names again at every comparison.
 */
export async function encodeDirectory(links: readonly DirectoryLink[]): Promise<EncodedDirectory> {
  return directoryNode(framedDirectory(links.map(encodedLink).sort(byName)));
}

/** The order of a directory's links: by the bytes of their names. */
export const byName = (a: Pick<EncodedLink, 'name'>, b: Pick<EncodedLink, 'name'>) =>
  Buffer.compare(a.name, b.name);

/** A directory node's bytes, with the sums over its links that its CID and its parent's link need. */
export interface FramedDirectory {
  bytes: Uint8Array;
  /** The sharding estimate of its links (EncodedLink.estimate, summed). */
  estimate: number;
  /** Their cumulative DAG sizes, summed. */
  linked: number;
}

/**
 * The node of links encoded and sorted already, framed from all of them. Throws DirectoryTooLargeError past
 * the sharding threshold, before joining any bytes.
 */
export function framedDirectory(sorted: readonly EncodedLink[]): FramedDirectory {
  let estimate = 0;
  let linked = 0;
  for (const link of sorted) {
    estimate += link.estimate;
    linked += link.dagSize;
  }
  if (estimate > SHARDING_THRESHOLD_BYTES) throw new DirectoryTooLargeError();
  return { bytes: Buffer.concat([...sorted.map((link) => link.field), DIRECTORY_DATA]), estimate, linked };
}

/**
 * A framed node with its CID: from `framedDirectory`, or made by the caller from a previous version's bytes
 * (folder-edits.ts), whose sums are checked against the threshold the same way.
 */
export async function directoryNode(framed: FramedDirectory): Promise<EncodedDirectory> {
  if (framed.estimate > SHARDING_THRESHOLD_BYTES) throw new DirectoryTooLargeError();
  const cid = CID.createV0(await sha256.digest(framed.bytes));
  return { cid: cidText(cid), bytes: framed.bytes, dagSize: framed.linked + framed.bytes.length };
}

/**
 * Whether `bytes` is framed as a dag-pb node: length-delimited links (field 2), then at most one Data
 * (field 1), nothing else, nothing cut. What `putBlock` needs to refuse bytes that are not a node, without
 * decoding every link of a large folder.
 */
export function isDagPb(bytes: Uint8Array): boolean {
  let at = 0;
  let sawData = false;
  while (at < bytes.length) {
    const tag = bytes[at++];
    if ((tag !== 0x12 && tag !== 0x0a) || sawData) return false;
    sawData = tag === 0x0a;
    let length = 0;
    let scale = 1;
    let byte: number;
    do {
      if (at >= bytes.length || scale > 2 ** 42) return false;
      byte = bytes[at++]!;
      length += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte & 0x80);
    at += length;
  }
  return at === bytes.length;
}
