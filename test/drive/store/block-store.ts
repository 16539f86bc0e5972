import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

/** An in-memory block writer answering the CIDv0 Kubo computes, keeping every node it is given. */
export function blockStore() {
  const blocks = new Map<string, Uint8Array>();
  return {
    blocks,
    putBlock: async (bytes: Uint8Array) => {
      const cid = CID.createV0(await sha256.digest(bytes)).toString();
      blocks.set(cid, bytes);
      return cid;
    },
  };
}
