import { createHash } from 'node:crypto';
import { CID } from 'multiformats/cid';
import { create as createDigest } from 'multiformats/hashes/digest';
import { StationError } from '../../errors.js';
import type { BlockBatch } from '../db/block-batch.js';
import { cidText } from '../store/cid-text.js';
import type { ContentStore } from '../store/types.js';

/**
 * What building a drive's published tree asks of the store: the nodes of the previous tree, and a place for
 * the new ones. The embedded store's implementation keeps new nodes in the change's batch (db/block-batch.ts)
 * until the change commits; Kubo's sends them to the daemon.
 */
export interface NodeStore {
  /** A block by CID: one this change made, or one the store holds. */
  get(cid: string): Promise<Uint8Array>;
  /** Stores an encoded dag-pb node; answers its CIDv0. */
  put(bytes: Uint8Array): Promise<string>;
  /** Stores a block whose CIDv0 is known already (not hashed again). */
  putKnown(cid: string, bytes: Uint8Array): Promise<void>;
}

const SHA2_256 = 0x12;

/** The CIDv0 of a dag-pb block, hashed with node's own SHA-256 (synchronous, no copy). */
export function cidV0Of(bytes: Uint8Array): string {
  const digest = createHash('sha256').update(bytes).digest();
  return cidText(CID.createV0(createDigest(SHA2_256, digest)));
}

/**
 * Whether a dag-pb block has no links, without decoding it: links are field 2 (tag 0x12) and come before the
 * Data field (tag 0x0a), so a block starting with anything but 0x12 links nothing. What the collector asks of
 * every leaf of every file.
 */
export function linksNothing(bytes: Uint8Array): boolean {
  return bytes.length === 0 || bytes[0] !== 0x12;
}

/**
 * The nodes of one change: new ones go into its batch (the embedded store; the change's transaction writes
 * them) or to Kubo at once, and reads look in the batch first.
 */
export function changeNodes(
  store: Pick<ContentStore, 'kind' | 'getBlock' | 'putBlock'>,
  batch: BlockBatch,
): NodeStore {
  const putKnown = async (cid: string, bytes: Uint8Array) => {
    if (store.kind === 'embedded') batch.put(cid, bytes);
    else if (!batch.has(cid)) {
      if ((await store.putBlock(bytes, cid)) !== cid)
        throw new StationError('CID_MISMATCH', {
          en: 'The content store computed another CID for a drive node.',
          fr: 'Le stockage de contenu a calculé un autre CID pour un nœud du uDRIVE.',
        });
      batch.put(cid, bytes);
    }
  };
  return {
    get: async (cid) => batch.get(cid) ?? (await store.getBlock(cid)),
    put: async (bytes) => {
      const cid = cidV0Of(bytes);
      await putKnown(cid, bytes);
      return cid;
    },
    putKnown,
  };
}
