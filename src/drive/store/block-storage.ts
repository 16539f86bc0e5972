import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { CID } from 'multiformats/cid';
import type { LeafPlace } from './file-leaves.js';
import { HeldFiles } from './held-files.js';
import { OnceBlocks } from './once-blocks.js';
import { PendingWrites, type WriteBatch } from './pending-writes.js';

/**
 * How much of one imported file goes to LMDB; the rest of a larger file goes to files. LMDB keeps pages it
 * writes mapped, so a 1 GiB file written into it grows the process's RSS by about 40 MB (file-backed, but a
 * supervisor restarting on RSS sees it), where block files cost nothing resident.
 */
export const SMALL_FILE_BYTES = 1024 * 1024;

/** Past SMALL_FILE_BYTES, blocks this small (a large file's inner nodes) still go to LMDB, with its root. */
const SMALL_BLOCK_BYTES = 16 * 1024;

/** A missing block, named as the UnixFS exporter expects (see `translate` in embedded.ts). */
class BlockNotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * The embedded store's blocks and pins. A drive publication writes a handful of small nodes and pins, and an
 * upload is mostly a small file: in LMDB (`<store>/lmdb`) each block or pin is one key, and the writes of
 * concurrent uploads share a transaction and one flush, where files cost five system calls per block and
 * pins (formerly one flushed file each, see legacy-pins.ts) a flush each. Data of large files goes to
 * `<store>/blocks/` (blockstore-fs), as every block did before. Every PM2 worker and the CLI open the same
 * environment, so writes stay atomic across processes.
 */
export class BlockStorage {
  private constructor(
    private readonly root: RootDatabase,
    private readonly small: Database<Buffer, string>,
    private readonly pinned: Database<string, string>,
    private readonly files: Pick<FsBlockstore, 'get' | 'has'>,
    private readonly once: OnceBlocks,
    private readonly held: HeldFiles,
    idleCommitMs?: number,
  ) {
    const target = { write: (batch: WriteBatch) => this.write(batch), flushed: () => this.lmdbFlushed() };
    this.pending = new PendingWrites(target, idleCommitMs);
  }

  /** Blocks and pins not committed yet: see PendingWrites. */
  private readonly pending: PendingWrites;

  /** LMDB transactions written since opening (see PendingWrites). */
  get commits(): number {
    return this.pending.commits;
  }

  /**
   * `dir` is the store's directory; blocks written by earlier versions are in its `blocks/` and stay readable.
   * `idleCommitMs`: see PendingWrites (tests set it long, to count a publication's transactions).
   */
  static async open(dir: string, { idleCommitMs }: { idleCommitMs?: number } = {}): Promise<BlockStorage> {
    const path = join(dir, 'lmdb');
    await mkdir(path, { recursive: true });
    // As the station's other environments (src/state/station-db.ts), a failed commit rejects its own writes.
    // Writes resolve once committed and visible; their flush to disk overlaps the next ones, and writers
    // that need durability wait for `flushed()` once (ContentStore.flush).
    const root = open({ path, compression: false, eventTurnBatching: false, separateFlushed: true });
    const small = root.openDB<Buffer, string>({ name: 'blocks', encoding: 'binary' });
    const pinned = root.openDB<string, string>({ name: 'pins', encoding: 'string' });
    const files = new FsBlockstore(join(dir, 'blocks'));
    await files.open();
    const held = new HeldFiles(root, join(dir, 'files'));
    return new BlockStorage(root, small, pinned, files, new OnceBlocks(files), held, idleCommitMs);
  }

  /**
   * Where one file's import writes: its first SMALL_FILE_BYTES of blocks (the whole of a typical photo, and
   * its inner nodes written last are small) in LMDB, the rest in files.
   */
  forImport(): Pick<BlockStorage, 'put'> {
    let written = 0;
    return {
      put: (cid, bytes) => {
        const before = written;
        written += bytes.byteLength;
        return before >= SMALL_FILE_BYTES && bytes.byteLength > SMALL_BLOCK_BYTES
          ? this.once.put(cid, bytes)
          : this.put(cid, bytes);
      },
    };
  }

  /** Into LMDB. Content addressing: a block already held is the same bytes, so it is not written again. */
  async put(cid: CID, bytes: Uint8Array): Promise<CID> {
    const key = cid.toString();
    if (!this.pending.block(key) && !this.small.doesExist(key))
      this.pending.putBlock(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return cid;
  }

  /** See HeldFiles: the leaves of a file are served from the file itself, kept by a link. */
  holdFile(path: string, leaves: ReadonlyMap<string, LeafPlace>): Promise<void> {
    return this.held.hold(path, leaves);
  }

  async *get(cid: CID): AsyncGenerator<Uint8Array> {
    const key = cid.toString();
    const bytes = this.pending.block(key) ?? this.small.getBinary(key) ?? (await this.held.leaf(cid));
    if (bytes) {
      yield bytes;
      return;
    }
    if (!(await this.files.has(cid)))
      throw new BlockNotFoundError(`block ${cid.toString()} is not in the store`);
    yield* this.files.get(cid);
  }

  async has(cid: CID): Promise<boolean> {
    const key = cid.toString();
    return (
      this.pending.block(key) !== undefined ||
      this.small.doesExist(key) ||
      this.held.has(key) ||
      this.files.has(cid)
    );
  }

  async pin(cid: string, at: Date = new Date()): Promise<void> {
    const pending = this.pending.pin(cid);
    if (typeof pending === 'string' || (pending === undefined && this.pinned.doesExist(cid))) return;
    this.pending.setPin(cid, at.toISOString());
  }

  async unpin(cid: string): Promise<void> {
    this.pending.setPin(cid, null);
  }

  pins(): string[] {
    const { added, removed } = this.pending.pinChanges();
    const kept = [...this.pinned.getKeys()].filter((key) => !removed.has(key));
    return [...new Set([...kept, ...added])];
  }

  /** Everything written so far, committed and on disk (see PendingWrites). */
  flushed(): Promise<void> {
    return this.pending.commit();
  }

  async close(): Promise<void> {
    try {
      await this.pending.close();
    } finally {
      await this.root.close();
    }
  }

  private async lmdbFlushed(): Promise<void> {
    await this.root.flushed;
  }

  /** One transaction, written by LMDB's write thread; a pin already there keeps its date. */
  private async write(batch: WriteBatch): Promise<void> {
    const writes: Promise<boolean>[] = [];
    for (const [key, bytes] of batch.blocks) writes.push(this.small.put(key, bytes));
    for (const [key, date] of batch.pins) {
      if (date === null) writes.push(this.pinned.remove(key));
      else if (!this.pinned.doesExist(key)) writes.push(this.pinned.put(key, date));
    }
    await Promise.all(writes);
  }
}
