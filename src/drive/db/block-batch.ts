import type { HeldLeaf } from './records.js';

/**
 * Blocks a change makes before it commits (an import's leaves and nodes, wrappers, folders, the manifest's
 * pages, a media folder), kept in memory and written by the change's own transaction (db/commit.ts), so that
 * no block exists in the store without the change that refers to it, and the collector never sees an
 * import in flight. With Kubo (`IPFS_API`) the blocks went to the daemon already and the batch stays empty.
 */
export class BlockBatch {
  readonly blocks = new Map<string, Uint8Array>();
  /** Leaves of large files, read from the held file where they sit (store/held-files.ts). */
  readonly leaves = new Map<string, HeldLeaf>();

  put(cid: string, bytes: Uint8Array): void {
    this.blocks.set(cid, bytes);
  }

  get(cid: string): Uint8Array | undefined {
    return this.blocks.get(cid);
  }

  has(cid: string): boolean {
    return this.blocks.has(cid) || this.leaves.has(cid);
  }

  hold(cid: string, leaf: HeldLeaf): void {
    this.leaves.set(cid, leaf);
  }

  /** Another batch's blocks too (a batch of changes commits their imports together). */
  merge(other: BlockBatch): void {
    for (const [cid, bytes] of other.blocks) this.blocks.set(cid, bytes);
    for (const [cid, leaf] of other.leaves) this.leaves.set(cid, leaf);
  }

  /** The held files the batch's leaves sit in. */
  heldFiles(): Set<string> {
    return new Set([...this.leaves.values()].map((leaf) => leaf.file));
  }

  get bytes(): number {
    let total = 0;
    for (const bytes of this.blocks.values()) total += bytes.byteLength;
    return total;
  }
}
