import { InvalidInput, DependencyError, NotFound, type Localized } from '../../errors.js';
import type { BlockBatch } from '../db/block-batch.js';

/**
 * The content-addressed store the drive depends on. Two implementations: Kubo over its RPC API, and an
 * embedded one (blocks on disk) producing the same CIDs as Kubo's `ipfs add` defaults.
 *
 * `path` arguments are IPFS paths without the `/ipfs/` prefix: `<cid>` or `<cid>/<name>[/<name>…]`.
 */
export interface ContentStore {
  readonly kind: 'embedded' | 'kubo';
  /** Imports a byte stream as a UnixFS file (CIDv0, 256 KiB chunks, balanced, no raw leaves). */
  add(content: AsyncIterable<Uint8Array>, options?: AddOptions): Promise<AddResult>;
  /**
   * Imports a file on disk as `add` does. The store may keep the file itself (a hard link) rather than a
   * copy, so the caller must never change it in place afterwards.
   */
  addFile(path: string, options?: AddFileOptions): Promise<AddResult>;
  /** Streams the bytes of a file, optionally a slice of it. */
  cat(path: string, options?: CatOptions): AsyncIterable<Uint8Array>;
  stat(path: string, options?: SignalOptions): Promise<StatResult>;
  /** The entries of a directory, in link order. */
  ls(path: string, options?: SignalOptions): Promise<DirEntry[]>;
  /**
   * Stores one encoded dag-pb node (a directory built by the drive) and returns its CIDv0. `cid`: the one the
   * drive's encoder computed from these bytes; the embedded store files the node under it without hashing it
   * again, Kubo hashes it on its side and answers its own, which the caller compares. `into`: see AddOptions.
   */
  putBlock(bytes: Uint8Array, cid?: string, into?: BlockBatch): Promise<string>;
  /** The bytes of one block (the drive reads back the nodes of the tree it changes). */
  getBlock(cid: string, options?: SignalOptions): Promise<Uint8Array>;
  /**
   * Whether every block of the DAG under `cid` is here (the embedded store looks at each, reading inner
   * nodes only; Kubo says whether it can stat it): what importing a drive of an earlier version verifies.
   */
  holds(cid: string): Promise<boolean>;
  /**
   * Tells the store the change `batch` was imported for is over: committed (what the import left outside the
   * batch, the embedded store's held files, is now named by the index), or not (it is given up). A no-op for
   * Kubo.
   */
  release(batch: BlockBatch, committed: boolean): Promise<void>;
  /** Recursive pin; idempotent. */
  pin(cid: string): Promise<void>;
  /** Removes a recursive pin; unpinning something not pinned is not an error. */
  unpin(cid: string): Promise<void>;
  /** The recursively pinned CIDs. */
  pins(): Promise<string[]>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

export interface SignalOptions {
  signal?: AbortSignal;
}

export interface AddOptions extends SignalOptions {
  /** Pin the new file (Kubo's default too). Default true. */
  pin?: boolean;
  /**
   * The batch of the drive change this content belongs to (db/block-batch.ts): the embedded store puts the
   * blocks there, and the change's transaction writes them, so nothing is stored before it is referred to.
   * Without it the embedded store writes at once. Kubo stores at once either way.
   */
  into?: BlockBatch;
}

/** `addFile`'s options: the caller may already know the file's size (it wrote the file), or hold its bytes. */
export interface AddFileOptions extends AddOptions {
  size?: number;
  /** The whole content of the file, when the caller still has it in memory: not read again. */
  bytes?: Uint8Array;
}

export interface CatOptions extends SignalOptions {
  offset?: number;
  length?: number;
}

export interface AddResult {
  cid: string;
  /** File size in bytes. */
  size: number;
  /** Cumulative size of the file's DAG: what a parent directory records as the link's Tsize. */
  dagSize: number;
}

export type EntryType = 'file' | 'directory';

export interface StatResult {
  cid: string;
  type: EntryType;
  /** File size in bytes (0 for directories). */
  size: number;
  dagSize: number;
}

export interface DirEntry {
  name: string;
  cid: string;
  type: EntryType;
  /** File size in bytes (0 for directories). */
  size: number;
}

export interface StoreHealth {
  ok: boolean;
  /** `embedded` or `kubo <version>`, or why the store is unusable. */
  detail: string;
}

/** Nothing at that CID or path. */
export class ContentNotFoundError extends NotFound {
  constructor(path: string) {
    super('CONTENT_NOT_FOUND', { en: `Nothing found at /ipfs/${path}.`, fr: `Rien à /ipfs/${path}.` });
  }
}

/** Not a CID or not a usable IPFS path. */
export class InvalidContentPathError extends InvalidInput {
  constructor(detail: Localized) {
    super('INVALID_IPFS_PATH', detail);
  }
}

/** A block asked for as a folder node that is not one. */
export const notDagPb = (): InvalidContentPathError =>
  new InvalidContentPathError({
    en: 'The block is not a dag-pb node.',
    fr: 'Le bloc n’est pas un nœud dag-pb.',
  });

/** What the content stores say of a path they cannot parse. */
export const invalidIpfsPath = (path: string): InvalidContentPathError =>
  new InvalidContentPathError({
    en: `"${path}" is not a valid IPFS path.`,
    fr: `« ${path} » n’est pas un chemin IPFS valide.`,
  });

/** A file was expected, a directory (or another node type) was found. */
export class NotAFileError extends InvalidInput {
  constructor(path: string) {
    super('NOT_A_FILE', {
      en: `/ipfs/${path} is a directory, not a file.`,
      fr: `/ipfs/${path} est un dossier, pas un fichier.`,
    });
  }
}

export class NotADirectoryError extends InvalidInput {
  constructor(path: string) {
    super('NOT_A_DIRECTORY', {
      en: `/ipfs/${path} is not a directory.`,
      fr: `/ipfs/${path} n’est pas un dossier.`,
    });
  }
}

/** The store is down, failed or timed out; codes CONTENT_STORE_DOWN/FAILED/TIMEOUT. */
export function storeError(kind: 'down' | 'failed' | 'timeout', detail: Localized): DependencyError {
  return new DependencyError('content store', kind, detail);
}
