import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { DriveHead, EntryRecord, FsIntent, HeldLeaf, MediaRecord, PageRecord } from './records.js';

/**
 * The drives' one environment (`DATA_ROOT/ipfs-store/lmdb`): the index of every drive and the embedded
 * content store's blocks, so that a change (its blocks, entries, pins, blob holders, media, new root) is one
 * transaction, across the processes of a PM2 cluster and the CLI alike. Readers read snapshots; nothing
 * outside this environment is the truth about a drive (docs/data-layout.md).
 */
export interface DriveDb {
  root: RootDatabase;
  /** CID → a block of the embedded store (Kubo keeps its own). */
  blocks: Database<Buffer, string>;
  /** Leaf CID → where that leaf's data sits in a file held by link (`ipfs-store/files/<file>`). */
  fileLeaves: Database<HeldLeaf, string>;
  /** CID → the change (`meta` gen) that last wrote or reused it: the collector spares what came after it. */
  blockGen: Database<number, string>;
  /** CID → date: recursive pins asked through ContentStore.pin (the drive's own are `pinRefs`). */
  pins: Database<string, string>;
  /** hex → the drive's head. */
  drives: Database<DriveHead, string>;
  /**
   * [drive, seq] → the file added as that drive's seq-th. Tables of a drive's records are keyed by its head's
   * `id` (a small number given at its first change), not by its 64-character key: every change writes
   * several of these keys.
   */
  entries: Database<EntryRecord, [number, number]>;
  /** [drive, path] → seq. */
  paths: Database<number, [number, string]>;
  /** [drive, sha256, seq]: a drive's files by content. */
  hashes: Database<true, [number, string, number]>;
  /** [sha256, drive] → how many of that drive's files hold these bytes (the blob index). */
  holders: Database<number, [string, number]>;
  /** CID → how many drive files and media records keep it (wrappers, media folders): never below 1. */
  pinRefs: Database<number, string>;
  /** CID → unix seconds it was last handed out (a root, a wrapper): kept STORE_KEEP_ROOTS_S after. */
  roots: Database<number, string>;
  /** [drive, wrapper CID] → the media made for that file. */
  media: Database<MediaRecord, [number, string]>;
  /** [drive, level, index] → a node of the drive's published manifest (tree/manifest-tree.ts). */
  pages: Database<PageRecord, [number, number, number]>;
  /** [hex, id] → a file operation a committed change still owes the drive's folders. */
  intents: Database<FsIntent, [string, string]>;
  /** Counters and markers: `gen`, `gc`, `migration`. */
  meta: Database<unknown, string>;
  /**
   * Bytes of the environment's pages holding data. The file keeps the size of its fullest moment: LMDB reuses
   * freed pages for later writes and never gives them back to the file system.
   */
  usedBytes(): number;
  close(): Promise<void>;
}

interface PageStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
}

const pagesOf = (stats: PageStats) =>
  stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;

/** The environment's folder inside the store's directory (`DATA_ROOT/ipfs-store`). */
export const driveDbPath = (storeDir: string) => join(storeDir, 'lmdb');

export async function openDriveDb(storeDir: string): Promise<DriveDb> {
  const path = driveDbPath(storeDir);
  await mkdir(path, { recursive: true, mode: 0o700 });
  // A failed commit (a full disk) rejects its own transaction; commits are durable once `root.flushed`
  // resolves, and their flush overlaps the next transaction (lmdb-js overlappingSync). Without event-turn
  // batching: with it lmdb-js keeps a commit promise of its own that nobody awaits, which a failed commit
  // rejects unhandled, bringing the process down (as state/station-db.ts and the relay's store found).
  const root = open({
    path,
    compression: false,
    separateFlushed: true,
    maxDbs: 32,
    eventTurnBatching: false,
  });
  // Plain msgpack maps: a record definition written into each value costs more to read than it saves.
  const msgpack = { useRecords: false } as const;
  const dbs = {
    blocks: root.openDB<Buffer, string>({ name: 'blocks', encoding: 'binary' }),
    fileLeaves: root.openDB<HeldLeaf, string>({ name: 'file-leaves', ...msgpack }),
    blockGen: root.openDB<number, string>({ name: 'block-gen' }),
    pins: root.openDB<string, string>({ name: 'pins', encoding: 'string' }),
    drives: root.openDB<DriveHead, string>({ name: 'drives', ...msgpack }),
    entries: root.openDB<EntryRecord, [number, number]>({ name: 'entries', ...msgpack }),
    paths: root.openDB<number, [number, string]>({ name: 'paths' }),
    hashes: root.openDB<true, [number, string, number]>({ name: 'hashes' }),
    holders: root.openDB<number, [string, number]>({ name: 'holders' }),
    pinRefs: root.openDB<number, string>({ name: 'pin-refs' }),
    roots: root.openDB<number, string>({ name: 'roots' }),
    media: root.openDB<MediaRecord, [number, string]>({ name: 'media', ...msgpack }),
    pages: root.openDB<PageRecord, [number, number, number]>({ name: 'pages', ...msgpack }),
    intents: root.openDB<FsIntent, [string, string]>({ name: 'fs-intents', ...msgpack }),
    meta: root.openDB<unknown, string>({ name: 'meta', ...msgpack }),
  };
  return {
    root,
    ...dbs,
    usedBytes: () => {
      const main = root.getStats() as PageStats;
      let pages = pagesOf(main);
      for (const db of Object.values(dbs)) pages += pagesOf(db.getStats() as PageStats);
      return pages * main.pageSize;
    },
    close: () => root.close(),
  };
}

/** Within a write transaction: the next change number, recorded as the one now running. */
export function nextGen(db: Pick<DriveDb, 'meta'>): number {
  const gen = ((db.meta.get('gen') as number | undefined) ?? 0) + 1;
  void db.meta.put('gen', gen);
  return gen;
}

/** Within a write transaction: the id of a drive the index meets for the first time. */
export function nextDriveId(db: Pick<DriveDb, 'meta'>): number {
  const id = ((db.meta.get('drive-id') as number | undefined) ?? 0) + 1;
  void db.meta.put('drive-id', id);
  return id;
}

/** The last change number committed (outside a transaction: as of this read). */
export function currentGen(db: Pick<DriveDb, 'meta'>): number {
  return (db.meta.get('gen') as number | undefined) ?? 0;
}

/** Upper bound of a string key component in ranges: above every CID, path or hex. */
export const LAST = '\uffff';
