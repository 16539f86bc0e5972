import { join } from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { linksNothing } from '../tree/nodes.js';
import { BlockBatch } from '../db/block-batch.js';
import { writeBlocks } from '../db/commit.js';
import { handled } from '../db/commit-error.js';
import { nextGen, type DriveDb } from '../db/drive-db.js';
import { HeldFiles } from './held-files.js';

/** A missing block, named as the UnixFS exporter expects (see `translate` in embedded-errors.ts). */
class BlockNotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * The embedded store's blocks, read from the drive index's environment (db/drive-db.ts): small blocks in LMDB,
 * large files' leaves from the files held by link (held-files.ts), and blocks of versions before 2026-11-25
 * from `<store>/blocks/` (blockstore-fs, read only). Blocks are written by the changes that make them
 * (db/commit.ts), or by `write` for content added outside any drive change.
 */
export class BlockStorage {
  readonly held: HeldFiles;

  private constructor(
    readonly db: DriveDb,
    private readonly legacy: Pick<FsBlockstore, 'get' | 'has'>,
    readonly dir: string,
  ) {
    this.held = new HeldFiles(db.fileLeaves, join(dir, 'files'));
  }

  /** `dir` is the store's directory (`DATA_ROOT/ipfs-store`); `db` the environment opened in it. */
  static async open(dir: string, db: DriveDb): Promise<BlockStorage> {
    const legacy = new FsBlockstore(join(dir, 'blocks'));
    await legacy.open();
    return new BlockStorage(db, legacy, dir);
  }

  /** The bytes of a block, or undefined when the store does not hold it. */
  async bytes(cid: CID): Promise<Uint8Array | undefined> {
    const key = cid.toString();
    const small = this.db.blocks.getBinary(key);
    if (small) return small;
    const leaf = await this.held.leaf(cid);
    if (leaf) return leaf;
    if (!(await this.legacy.has(cid))) return undefined;
    const parts: Uint8Array[] = [];
    for await (const part of this.legacy.get(cid)) parts.push(part);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** The blockstore interface the UnixFS exporter reads through. */
  async *get(cid: CID): AsyncGenerator<Uint8Array> {
    const bytes = await this.bytes(cid);
    if (!bytes) throw new BlockNotFoundError(`block ${cid.toString()} is not in the store`);
    yield bytes;
  }

  async has(cid: CID): Promise<boolean> {
    const key = cid.toString();
    return this.db.blocks.doesExist(key) || this.held.has(key) || this.legacy.has(cid);
  }

  /** Writes blocks made outside any drive change, in a transaction of their own (durable once it resolves). */
  async write(batch: BlockBatch): Promise<void> {
    if (batch.blocks.size === 0 && batch.leaves.size === 0) return;
    await handled(this.db.root.childTransaction(() => writeBlocks(this.db, batch, nextGen(this.db))));
    await this.db.root.flushed;
    await this.held.release(batch.heldFiles(), true);
  }

  /** Whether every block under `cid` is here: inner nodes are read, leaves only looked up (and their file). */
  async holds(cid: CID): Promise<boolean> {
    const pending = [cid];
    const files = new Map<string, Promise<boolean>>();
    for (let next = pending.pop(); next; next = pending.pop()) {
      const key = next.toString();
      const leaf = this.db.fileLeaves.get(key);
      if (leaf) {
        // A held file's leaf links nothing; its file must still be there.
        if (!files.has(leaf.file)) files.set(leaf.file, this.held.fileExists(leaf.file));
        if (!(await files.get(leaf.file))) return false;
        continue;
      }
      const bytes = this.db.blocks.getBinary(key) ?? (await this.bytes(next));
      if (!bytes) return false;
      if (!linksNothing(bytes)) for (const link of dagPb.decode(bytes).Links) pending.push(link.Hash);
    }
    return true;
  }

  async pin(cid: string, at: Date = new Date()): Promise<void> {
    await handled(this.db.pins.ifNoExists(cid, () => void this.db.pins.put(cid, at.toISOString())));
  }

  async unpin(cid: string): Promise<void> {
    await handled(this.db.pins.remove(cid));
  }

  pins(): string[] {
    return [...this.db.pins.getKeys()];
  }
}

export { BlockBatch };
