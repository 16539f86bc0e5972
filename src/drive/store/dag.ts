import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import { cidV0Of } from '../tree/nodes.js';
import { parsedCid } from './cid-text.js';

export interface DirectoryLink {
  name: string;
  /** As text, or decoded (a link read from a node: turning it into text costs more than encoding it). */
  cid: string | CID;
  /** Cumulative DAG size of the target (what `ipfs add -r` records). */
  dagSize: number;
}

export interface EncodedDirectory {
  cid: string;
  bytes: Uint8Array;
  /** Cumulative size: this node plus everything below it, for the parent's link. */
  dagSize: number;
}

const DIRECTORY_DATA = new UnixFS({ type: 'directory' }).marshal();

export const asCid = (cid: string | CID): CID => (typeof cid === 'string' ? parsedCid(cid) : cid);

/** A node's links (of its bytes, or of it decoded already), CIDs left decoded. */
export function linksOf(bytes: Uint8Array | dagPb.PBNode): DirectoryLink[] {
  const node = bytes instanceof Uint8Array ? dagPb.decode(bytes) : bytes;
  return node.Links.map((l) => ({ name: l.Name ?? '', cid: l.Hash, dagSize: l.Tsize ?? 0 }));
}

/**
 * A plain UnixFS directory node exactly as `ipfs add -r` writes it (@ipld/dag-pb's canonical form: links
 * sorted by the bytes of their names), CIDv0. The drive's directories are small (a wrapper, a root, a folder
 * of at most a few KiB before it is sharded: tree/folder.ts), so nothing is gained by encoding them by hand.
 */
export async function encodeDirectory(links: readonly DirectoryLink[]): Promise<EncodedDirectory> {
  const bytes = dagPb.encode(
    dagPb.prepare({
      Data: DIRECTORY_DATA,
      Links: links.map((l) => ({ Name: l.name, Hash: asCid(l.cid), Tsize: l.dagSize })),
    }),
  );
  return { cid: cidV0Of(bytes), bytes, dagSize: links.reduce((sum, l) => sum + l.dagSize, bytes.length) };
}

/** Whether `bytes` decode as a dag-pb node: what `putBlock` needs to refuse anything else. */
export function isDagPb(bytes: Uint8Array): boolean {
  try {
    dagPb.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
