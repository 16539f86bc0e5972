import type { DriveCategory } from '../categories.js';
import type { ManifestEntry } from '../manifest.js';

/** A node of the published tree: its CID and cumulative DAG size (what a parent links it with). */
export interface NodeRef {
  cid: string;
  dagSize: number;
}

/** A category folder of the published tree, and the sharding estimate of its links (tree/folder.ts). */
export interface FolderRef extends NodeRef {
  /** Sum over its links of name bytes plus CID bytes: what decides between a plain folder and a shard. */
  estimate: number;
}

/**
 * What the index says of one drive, changed by every change of it (one transaction each). `version` is what a
 * writer checks before committing a change it computed from this head: another process may have changed the
 * drive meanwhile.
 */
export interface DriveHead {
  /** The drive's number in the index's keys (db/drive-db.ts), given by its first change. */
  id: number;
  email: string;
  hex: string;
  /** Bumped by every change; 1 after the first. */
  version: number;
  /** The published root (`new_cid`), null before the first file. */
  root: string | null;
  folders: Record<DriveCategory, FolderRef>;
  /** The published `manifest.json` file. */
  manifest: NodeRef;
  files: number;
  bytes: number;
  /** The `seq` the next file gets: files are listed in the order they were added. */
  nextSeq: number;
  /** The smallest and largest seq of the files held (null when none; absent in heads of 2026-11-27 before it). */
  range?: { min: number; max: number } | null;
  updated_at: string;
}

/** A drive file as the index keeps it: its manifest entry and its place in the drive's order. */
export interface EntryRecord extends ManifestEntry {
  seq: number;
}

/**
 * The media made for an upload (info document, thumbnail, GIF), in one folder (`bundle`) kept while the file
 * is in the drive (media/service.ts).
 */
export interface MediaRecord {
  /** Relative to `APP/uDRIVE`. */
  path: string;
  bundle: string;
  info: string;
  thumbnail: string | null;
  gifanim: string | null;
}

/** One node of the published manifest's tree (tree/manifest-tree.ts): its CID, data bytes and DAG size. */
export interface PageRecord extends NodeRef {
  size: number;
}

/**
 * A file operation a committed change still owes the drive's folders: moving a staged upload into place, or
 * removing a deleted file. Recorded in the change's transaction, cleared once done; what a crash leaves is
 * done at the next start (fs-intents.ts).
 */
export interface FsIntent {
  op: 'place' | 'remove';
  /** Relative to `APP/uDRIVE`. */
  path: string;
  /** The staged file to move in (place). */
  staged?: string;
  /** The process that committed it (`<boot id>:<pid>`): its own intents are not redone while it lives. */
  holder: string;
}

/** Where a large file's leaf sits in a file the store holds by link (store/held-files.ts). */
export interface HeldLeaf {
  file: string;
  offset: number;
  length: number;
}
