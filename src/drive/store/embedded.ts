import { access, constants, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { exporter, type UnixFSEntry } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { BlockBatch } from '../db/block-batch.js';
import type { DriveDb } from '../db/drive-db.js';
import { cidText, parsedCid } from './cid-text.js';
import { isDagPb } from './dag.js';
import { translate } from './embedded-errors.js';
import { parseIpfsPath } from './ipfs-path.js';
import { BlockStorage } from './block-storage.js';
import { importFileAt, importStream, type Imported } from './embedded-import.js';
import {
  ContentNotFoundError,
  notDagPb,
  NotADirectoryError,
  NotAFileError,
  type AddFileOptions,
  type AddOptions,
  type AddResult,
  type CatOptions,
  type ContentStore,
  type DirEntry,
  type SignalOptions,
  type StatResult,
  type StoreHealth,
} from './types.js';

function isFileLike(entry: UnixFSEntry): boolean {
  return entry.type === 'file' || entry.type === 'raw' || entry.type === 'identity';
}

/**
 * The in-process store used when `IPFS_API` is unset: UnixFS blocks in the drive index's LMDB environment
 * (db/drive-db.ts), large files held by link (held-files.ts). It never starts a libp2p node: content is only
 * what was added here. A drive change hands its batch (`into`) to every write, and the change's transaction
 * writes the blocks; content added without one is written at once.
 */
export class EmbeddedStore implements ContentStore {
  readonly kind = 'embedded' as const;

  private constructor(
    readonly blocks: BlockStorage,
    private readonly root: string,
  ) {}

  /** `root` is the store's own directory, e.g. `DATA_ROOT/ipfs-store`, where `db` was opened. */
  static async open(root: string, db: DriveDb): Promise<EmbeddedStore> {
    // Pins of versions before the LMDB store, one file each: their drives now keep what they pinned.
    await rm(join(root, 'pins'), { recursive: true, force: true });
    return new EmbeddedStore(await BlockStorage.open(root, db), root);
  }

  async add(content: AsyncIterable<Uint8Array>, options: AddOptions = {}): Promise<AddResult> {
    const batch = options.into ?? new BlockBatch();
    return this.stored(await importStream(batch, content), batch, options);
  }

  /** See importFileAt: the caller must never change the file in place afterwards (the drive renames). */
  async addFile(path: string, options: AddFileOptions = {}): Promise<AddResult> {
    const batch = options.into ?? new BlockBatch();
    return this.stored(await importFileAt(batch, this.blocks.held, path, options), batch, options);
  }

  private async stored(imported: Imported, batch: BlockBatch, options: AddOptions): Promise<AddResult> {
    const cid = cidText(imported.cid);
    if (!options.into) await this.blocks.write(batch);
    if (options.pin !== false) await this.blocks.pin(cid);
    return { cid, size: imported.size, dagSize: imported.dagSize };
  }

  async *cat(path: string, options: CatOptions = {}): AsyncIterable<Uint8Array> {
    const entry = await this.resolve(path, options);
    if (!isFileLike(entry) || !('content' in entry)) throw new NotAFileError(path);
    try {
      yield* entry.content({ offset: options.offset, length: options.length, signal: options.signal });
    } catch (error) {
      throw translate(error, path);
    }
  }

  async stat(path: string, options: SignalOptions = {}): Promise<StatResult> {
    const entry = await this.resolve(path, options);
    const cid = entry.cid.toString();
    if (entry.type === 'raw' || entry.type === 'identity') {
      return { cid, type: 'file', size: entry.node.length, dagSize: entry.node.length };
    }
    if (entry.type !== 'file' && entry.type !== 'directory') throw new NotAFileError(path);
    const dagSize = entry.node.Links.reduce(
      (sum, link) => sum + (link.Tsize ?? 0),
      dagPb.encode(entry.node).length,
    );
    const size = entry.type === 'file' ? Number(entry.unixfs.fileSize()) : 0;
    return { cid, type: entry.type, size, dagSize };
  }

  async ls(path: string, options: SignalOptions = {}): Promise<DirEntry[]> {
    const entry = await this.resolve(path, options);
    if (entry.type !== 'directory') throw new NotADirectoryError(path);
    const result: DirEntry[] = [];
    try {
      for await (const child of entry.entries({ signal: options.signal })) {
        const childEntry = await exporter(child.cid, this.blocks, { signal: options.signal });
        const type = childEntry.type === 'directory' ? 'directory' : 'file';
        const size = type === 'file' ? Number(childEntry.size) : 0;
        result.push({ name: child.name, cid: child.cid.toString(), type, size });
      }
    } catch (error) {
      throw translate(error, path);
    }
    return result;
  }

  async putBlock(bytes: Uint8Array, computed?: string, into?: BlockBatch): Promise<string> {
    let cid = computed;
    if (!cid) {
      if (!isDagPb(bytes)) throw notDagPb();
      cid = cidText(CID.createV0(await sha256.digest(bytes)));
    }
    const batch = into ?? new BlockBatch();
    batch.put(cid, bytes);
    if (!into) await this.blocks.write(batch);
    return cid;
  }

  async getBlock(cid: string): Promise<Uint8Array> {
    const bytes = await this.blocks.bytes(parsedCid(cid));
    if (!bytes) throw new ContentNotFoundError(cid);
    return bytes;
  }

  release(batch: BlockBatch, committed: boolean): Promise<void> {
    return this.blocks.held.release(batch.heldFiles(), committed);
  }

  async holds(cid: string): Promise<boolean> {
    return this.blocks.holds(parsedCid(cid));
  }

  async pin(cid: string): Promise<void> {
    const parsed = parseIpfsPath(cid).cid;
    if (!(await this.blocks.has(parsed))) throw new ContentNotFoundError(cid);
    await this.blocks.pin(parsed.toString());
  }

  async unpin(cid: string): Promise<void> {
    await this.blocks.unpin(parseIpfsPath(cid).cid.toString());
  }

  async pins(): Promise<string[]> {
    return this.blocks.pins().sort();
  }

  async health(): Promise<StoreHealth> {
    try {
      await access(this.root, constants.R_OK | constants.W_OK);
      return { ok: true, detail: 'embedded' };
    } catch {
      return { ok: false, detail: 'embedded store directory is not writable' };
    }
  }

  /** The environment belongs to whoever opened it (drive/services.ts): nothing to close here. */
  async close(): Promise<void> {}

  private async resolve(path: string, options: SignalOptions): Promise<UnixFSEntry> {
    const parsed = parseIpfsPath(path);
    try {
      return await exporter(parsed.path, this.blocks, { signal: options.signal });
    } catch (error) {
      throw translate(error, parsed.path);
    }
  }
}
