import { createHash } from 'node:crypto';
import { UnixFS } from 'ipfs-unixfs';
import type { BufferImporter } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { create as createDigest } from 'multiformats/hashes/digest';
import { varintLength, writeVarint } from './varint.js';

const SHA2_256 = 0x12;

/**
 * What surrounds `length` bytes of data in a leaf as Kubo writes it (dag-pb `PBNode{Data}` holding UnixFS
 * `{Type: File, Data, filesize}`): the same bytes @ipld/dag-pb and ipfs-unixfs give, checked in
 * test/drive/store/file-leaves.test.ts, so a leaf's CID is hashed without copying its data. Not empty.
 */
export function leafFraming(length: number): { prefix: Buffer; suffix: Buffer } {
  // An empty leaf omits the Data field (only an empty file has one, and it is never held).
  if (length < 1) throw new RangeError('a held leaf holds at least one byte');
  const suffix = Buffer.allocUnsafe(1 + varintLength(length));
  suffix[0] = 0x18;
  writeVarint(suffix, 1, length);
  // UnixFS {Type: File (field 1 = 2), Data (field 2, this length)}, then the data, then the suffix.
  const unixfsHeadLength = 2 + 1 + varintLength(length);
  const unixfsLength = unixfsHeadLength + length + suffix.length;
  const prefix = Buffer.allocUnsafe(1 + varintLength(unixfsLength) + unixfsHeadLength);
  prefix[0] = 0x0a;
  let at = writeVarint(prefix, 1, unixfsLength);
  prefix[at++] = 0x08;
  prefix[at++] = 0x02;
  prefix[at++] = 0x12;
  writeVarint(prefix, at, length);
  return { prefix, suffix };
}

/** The leaf block for `data`, as stored or served. */
export function leafBlock(data: Uint8Array): Buffer {
  const { prefix, suffix } = leafFraming(data.byteLength);
  return Buffer.concat([prefix, data, suffix]);
}

/** The CIDv0 of the leaf holding `data`, hashed in place. */
export function leafCid(data: Uint8Array): CID {
  const { prefix, suffix } = leafFraming(data.byteLength);
  const digest = createHash('sha256').update(prefix).update(data).update(suffix).digest();
  return CID.createV0(createDigest(SHA2_256, digest));
}

/** Where a leaf's data sits in a file the store holds. */
export interface LeafPlace {
  offset: number;
  length: number;
}

/**
 * A leaf builder for the importer that stores nothing: each chunk's leaf CID is computed as Kubo's
 * (see `leafFraming`) and handed to `place` with where the chunk sits in the file, so that the store can
 * serve the leaf from the file itself. The parent node only needs each leaf's size (see lean-leaves.ts).
 */
export function placedLeaves(place: (cid: CID, where: LeafPlace) => void): BufferImporter {
  return async function* (file) {
    let offset = 0;
    for await (const data of file.content) {
      const where = { offset, length: data.byteLength };
      offset += data.byteLength;
      yield () => {
        const cid = leafCid(data);
        place(cid, where);
        const unixfs = new UnixFS({ type: 'file', blockSizes: [BigInt(data.byteLength)] });
        const { prefix, suffix } = leafFraming(data.byteLength);
        const size = BigInt(prefix.length + data.byteLength + suffix.length);
        return Promise.resolve({ cid, unixfs, size, block: new Uint8Array(0) });
      };
    }
  };
}
