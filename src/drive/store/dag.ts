import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
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
 * Kubo turns a directory into a HAMT shard once the names and CIDs of its links reach 256 KiB. The drive
 * only builds plain directories, so it must stay below that to keep Kubo's CIDs.
 */
export const SHARDING_THRESHOLD_BYTES = 256 * 1024;

export class DirectoryTooLargeError extends Error {
  readonly code = 'DIRECTORY_TOO_LARGE';
  constructor() {
    super('The directory is too large to be published without sharding.');
  }
}

/** A UnixFS directory node exactly as `ipfs add -r` writes it (links sorted by name, CIDv0). */
export async function encodeDirectory(links: readonly DirectoryLink[]): Promise<EncodedDirectory> {
  // Each CID is parsed once: decoding base58 is most of the cost of a large folder.
  const pbLinks = links.map((link) => ({ Name: link.name, Hash: CID.parse(link.cid), Tsize: link.dagSize }));
  let linkBytes = 0;
  for (const link of pbLinks) linkBytes += Buffer.byteLength(link.Name, 'utf8') + link.Hash.bytes.length;
  if (linkBytes >= SHARDING_THRESHOLD_BYTES) throw new DirectoryTooLargeError();
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
