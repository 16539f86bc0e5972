import { InvalidInput, DependencyError, NotFound } from '../../errors.js';

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
   * drive's encoder computed from these bytes (store/dag.ts); the embedded store files the node under it
   * without hashing it again (a folder of 2,500 files is some 125 KB to hash per upload), Kubo hashes it on
   * its side and answers its own, which the caller compares.
   */
  putBlock(bytes: Uint8Array, cid?: string): Promise<string>;
  /** Recursive pin; idempotent. */
  pin(cid: string): Promise<void>;
  /** Removes a recursive pin; unpinning something not pinned is not an error. */
  unpin(cid: string): Promise<void>;
  /** The recursively pinned CIDs. */
  pins(): Promise<string[]>;
  /**
   * Resolves once everything written so far survives a power cut. Writes resolve as soon as they are
   * visible; a writer that is about to point at new content from elsewhere (the drive's manifest, a media
   * record) waits for this once, whatever it wrote before.
   */
  flush(): Promise<void>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

export interface SignalOptions {
  signal?: AbortSignal;
}

export interface AddOptions extends SignalOptions {
  /** Pin the new file (Kubo's default too). Default true. */
  pin?: boolean;
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
    super('CONTENT_NOT_FOUND', `Nothing found at /ipfs/${path}.`);
  }
}

/** Not a CID or not a usable IPFS path. */
export class InvalidContentPathError extends InvalidInput {
  constructor(detail: string) {
    super('INVALID_IPFS_PATH', detail);
  }
}

/** A file was expected, a directory (or another node type) was found. */
export class NotAFileError extends InvalidInput {
  constructor(path: string) {
    super('NOT_A_FILE', `/ipfs/${path} is a directory, not a file.`);
  }
}

export class NotADirectoryError extends InvalidInput {
  constructor(path: string) {
    super('NOT_A_DIRECTORY', `/ipfs/${path} is not a directory.`);
  }
}

/** The store is down, failed or timed out; codes CONTENT_STORE_DOWN/FAILED/TIMEOUT. */
export function storeError(kind: 'down' | 'failed' | 'timeout', detail: string): DependencyError {
  return new DependencyError('content store', kind, detail);
}
