import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { leafBlock, leafCid } from '../../../src/drive/store/file-leaves.js';
import { buildLeaf } from '../../../src/drive/store/lean-leaves.js';

/** A leaf as ipfs-unixfs-importer writes it for Kubo's defaults (dag-pb, CIDv0). */
async function importerLeaf(data: Uint8Array): Promise<{ block: Uint8Array; cid: CID }> {
  const block = dagPb.encode({ Data: new UnixFS({ type: 'file', data }).marshal(), Links: [] });
  return { block, cid: CID.createV0(await sha256.digest(block)) };
}

describe('file leaves framed in place', () => {
  it.each([1, 127, 128, 16_383, 16_384, 100_000, 262_143, 262_144])(
    'give the importer’s block and CID for %i bytes',
    async (length) => {
      const data = Buffer.alloc(length, length % 251);
      const expected = await importerLeaf(data);
      expect(leafBlock(data).equals(Buffer.from(expected.block))).toBe(true);
      expect(leafCid(data).toString()).toBe(expected.cid.toString());
    },
  );

  it('are never empty (an empty leaf has no Data field)', () => {
    expect(() => leafCid(new Uint8Array(0))).toThrow(RangeError);
  });

  it.each([0, 1, 128, 65_536, 262_144])(
    'build the stored leaf of %i bytes as the importer does',
    async (length) => {
      const data = Buffer.alloc(length, 7);
      const expected = await importerLeaf(data);
      const built = await buildLeaf(data);
      expect(Buffer.from(built.block).equals(Buffer.from(expected.block))).toBe(true);
      expect(built.cid.toString()).toBe(expected.cid.toString());
    },
  );
});
