import { access, constants, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { exporter, type UnixFSEntry } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { cidText, parsedCid } from './cid-text.js';
import { isDagPb } from './dag.js';
import { translate } from './embedded-errors.js';
import { parseIpfsPath } from './ipfs-path.js';
import { BlockStorage } from './block-storage.js';
import { importFileAt, importStream, type Imported } from './embedded-import.js';
import { LegacyPins } from './legacy-pins.js';
import {
  ContentNotFoundError,
  InvalidContentPathError,
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
 * The in-process store used when `IPFS_API` is unset: UnixFS blocks and recursive pins in BlockStorage (LMDB
 * for small nodes and pins, a file per data block). It never starts a libp2p node: content is only what was
 * added here.
 */
export class EmbeddedStore implements ContentStore {
  readonly kind = 'embedded' as const;

  private constructor(
    private readonly blocks: BlockStorage,
    /** Pins written by versions before the LMDB store, one file each: read and removed, never added. */
    private readonly legacyPins: LegacyPins,
    private readonly root: string,
  ) {}

  /** `root` is the store's own directory, e.g. `DATA_ROOT/ipfs-store`. */
  static async open(
    root: string,
    options: Parameters<typeof BlockStorage.open>[1] = {},
  ): Promise<EmbeddedStore> {
    await mkdir(root, { recursive: true });
    const legacyPins = new LegacyPins(join(root, 'pins'));
    return new EmbeddedStore(await BlockStorage.open(root, options), legacyPins, root);
  }

  /** LMDB transactions written since opening (see PendingWrites): what `bench/drive-scaling.ts` reports. */
  get commits(): number {
    return this.blocks.commits;
  }

  async add(content: AsyncIterable<Uint8Array>, options: AddOptions = {}): Promise<AddResult> {
    return this.pinned(await importStream(this.blocks, content), options);
  }

  /** See importFileAt: the caller must never change the file in place afterwards (the drive renames). */
  async addFile(path: string, options: AddFileOptions = {}): Promise<AddResult> {
    return this.pinned(await importFileAt(this.blocks, path, options), options);
  }

  private async pinned(imported: Imported, options: AddOptions): Promise<AddResult> {
    const cid = cidText(imported.cid);
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

  async putBlock(bytes: Uint8Array, computed?: string): Promise<string> {
    if (computed) {
      await this.blocks.put(parsedCid(computed), bytes);
      return computed;
    }
    if (!isDagPb(bytes)) throw new InvalidContentPathError('The block is not a dag-pb node.');
    const cid = CID.createV0(await sha256.digest(bytes));
    await this.blocks.put(cid, bytes);
    return cidText(cid);
  }

  async pin(cid: string): Promise<void> {
    const parsed = parseIpfsPath(cid).cid;
    if (!(await this.blocks.has(parsed))) throw new ContentNotFoundError(cid);
    await this.blocks.pin(parsed.toString());
  }

  async unpin(cid: string): Promise<void> {
    const key = parseIpfsPath(cid).cid.toString();
    await Promise.all([this.blocks.unpin(key), this.legacyPins.remove(key)]);
  }

  flush(): Promise<void> {
    return this.blocks.flushed();
  }

  async pins(): Promise<string[]> {
    const all = new Set([...this.blocks.pins(), ...(await this.legacyPins.list())]);
    return [...all].sort();
  }

  async health(): Promise<StoreHealth> {
    try {
      await access(this.root, constants.R_OK | constants.W_OK);
      return { ok: true, detail: 'embedded' };
    } catch {
      return { ok: false, detail: 'embedded store directory is not writable' };
    }
  }

  async close(): Promise<void> {
    await this.blocks.close();
  }

  private async resolve(path: string, options: SignalOptions): Promise<UnixFSEntry> {
    const parsed = parseIpfsPath(path);
    try {
      return await exporter(parsed.path, this.blocks, { signal: options.signal });
    } catch (error) {
      throw translate(error, parsed.path);
    }
  }
}
