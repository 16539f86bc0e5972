import { randomBytes } from 'node:crypto';
import { nextDriveId, nextGen, type DriveDb } from './drive-db.js';
import type { BlockBatch } from './block-batch.js';
import { handled } from './commit-error.js';
import type { DriveHead, EntryRecord, FsIntent, MediaRecord, PageRecord } from './records.js';

/**
 * One change of one drive, as computed from the head whose `version` it names (changes/queue.ts): what the
 * transaction writes. Everything a drive is changes here and only here.
 */
export interface DriveCommit {
  hex: string;
  /** The version the change was computed from; null for a drive the index does not know yet. */
  basedOn: number | null;
  head: DriveHead;
  added: readonly EntryRecord[];
  removed: readonly EntryRecord[];
  /** Media records of files the change adds (a migrated drive's). */
  media?: readonly { wrapper: string; record: MediaRecord }[];
  rows: readonly { level: number; index: number; record: PageRecord | null }[];
  blocks: BlockBatch;
  /** CIDs handed to clients by this change (its root, new wrappers): kept readable STORE_KEEP_ROOTS_S. */
  handedOut: readonly string[];
  /** File operations the change owes the drive's folders. */
  intents: readonly FsIntent[];
  /** Ids of the drive's earlier intents done since: cleared with this change, in its transaction. */
  done?: readonly string[];
  /** Unix seconds, for `roots`. */
  at: number;
}

export type CommitOutcome = { ok: true; intentIds: string[] } | { ok: false; reason: 'conflict' };

/**
 * Writes a change's blocks. One already held is reused and given the change's number: a collection whose
 * walk began before this change (and may not have seen it reach that block) then spares it (gc/sweep.ts); a
 * new block is not in that walk's snapshot at all.
 */
export function writeBlocks(db: DriveDb, blocks: BlockBatch, gen: number): void {
  for (const [cid, bytes] of blocks.blocks) {
    if (db.blocks.doesExist(cid)) void db.blockGen.put(cid, gen);
    else void db.blocks.put(cid, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  for (const [cid, leaf] of blocks.leaves) {
    if (db.fileLeaves.doesExist(cid)) void db.blockGen.put(cid, gen);
    // The newest holding serves the leaf: an older held file nothing names any more is collected.
    void db.fileLeaves.put(cid, leaf);
  }
}

/**
 * Adds `delta` to a reference count. A count reaching 0 is removed, and the CID is kept as handed out at `at`:
 * a deleted file's wrapper and media stay readable STORE_KEEP_ROOTS_S more, as a superseded root does.
 */
export function countRef(db: DriveDb, cid: string, delta: number, at: number): void {
  const count = (db.pinRefs.get(cid) ?? 0) + delta;
  if (count > 0) void db.pinRefs.put(cid, count);
  else {
    void db.pinRefs.remove(cid);
    void db.roots.put(cid, at);
  }
}

function countHolder(db: DriveDb, key: [string, number], delta: number): void {
  const count = (db.holders.get(key) ?? 0) + delta;
  if (count > 0) void db.holders.put(key, count);
  else void db.holders.remove(key);
}

function dropMedia(db: DriveDb, id: number, wrapper: string, at: number): void {
  const record = db.media.get([id, wrapper]);
  if (!record) return;
  void db.media.remove([id, wrapper]);
  countRef(db, record.bundle, -1, at);
}

export const wrapperOfLink = (link: string) => link.split('/')[0]!;

/**
 * Commits a change in one LMDB transaction (a child transaction of lmdb-js's batch: changes committed at
 * the same moment share one flush, and one failing aborts only itself). Refused, with nothing written, when
 * the drive's head is no longer the one the change was computed from.
 */
export function commitChange(db: DriveDb, change: DriveCommit): Promise<CommitOutcome> {
  return db.root.childTransaction((): CommitOutcome => {
    const current = db.drives.get(change.hex);
    if ((current?.version ?? null) !== change.basedOn) return { ok: false, reason: 'conflict' };
    const gen = nextGen(db);
    writeBlocks(db, change.blocks, gen);
    const { hex } = change;
    const id = current?.id ?? nextDriveId(db);
    for (const entry of change.removed) {
      void db.entries.remove([id, entry.seq]);
      void db.paths.remove([id, entry.path]);
      void db.hashes.remove([id, entry.sha256, entry.seq]);
      countHolder(db, [entry.sha256, id], -1);
      countRef(db, wrapperOfLink(entry.ipfs_link), -1, change.at);
      // Its thumbnail, GIF and info document go with it.
      dropMedia(db, id, wrapperOfLink(entry.ipfs_link), change.at);
    }
    for (const entry of change.added) {
      void db.entries.put([id, entry.seq], entry);
      void db.paths.put([id, entry.path], entry.seq);
      void db.hashes.put([id, entry.sha256, entry.seq], true);
      countHolder(db, [entry.sha256, id], 1);
      countRef(db, wrapperOfLink(entry.ipfs_link), 1, change.at);
    }
    for (const { wrapper, record } of change.media ?? []) {
      void db.media.put([id, wrapper], record);
      countRef(db, record.bundle, 1, change.at);
    }
    for (const { level, index, record } of change.rows) {
      if (record) void db.pages.put([id, level, index], record);
      else void db.pages.remove([id, level, index]);
    }
    for (const cid of change.handedOut) void db.roots.put(cid, change.at);
    for (const id of change.done ?? []) void db.intents.remove([hex, id]);
    const intentIds: string[] = [];
    for (const intent of change.intents) {
      const id = randomBytes(8).toString('hex');
      intentIds.push(id);
      void db.intents.put([hex, id], intent);
    }
    void db.drives.put(hex, { ...change.head, id });
    return { ok: true, intentIds };
  }) as Promise<CommitOutcome>;
}

/**
 * Attaches media to a file still in the drive (media/service.ts): a transaction of its own, with its blocks.
 * False when the file left the drive meanwhile (nothing is written then).
 */
export function commitMedia(
  db: DriveDb,
  hex: string,
  path: string,
  wrapper: string,
  record: MediaRecord,
  blocks: BlockBatch,
  at: number,
): Promise<boolean> {
  return db.root.childTransaction(() => {
    const id = db.drives.get(hex)?.id ?? -1;
    const seq = db.paths.get([id, path]);
    const entry = seq === undefined ? undefined : db.entries.get([id, seq]);
    if (!entry || wrapperOfLink(entry.ipfs_link) !== wrapper) return false;
    writeBlocks(db, blocks, nextGen(db));
    dropMedia(db, id, wrapper, at);
    void db.media.put([id, wrapper], record);
    countRef(db, record.bundle, 1, at);
    // Readable for a while after the file goes, as the file's own wrapper is.
    for (const cid of [record.bundle, record.info, record.thumbnail, record.gifanim])
      if (cid) void db.roots.put(cid, at);
    return true;
  }) as Promise<boolean>;
}

/**
 * Clears file operations done, of several drives, in one transaction (at close; during a run each is cleared
 * by its drive's next change). A clear that never comes is only redone, harmlessly, at the next start.
 */
export function clearIntents(db: DriveDb, done: ReadonlyMap<string, readonly string[]>): Promise<unknown> {
  return handled(
    db.root.childTransaction(() => {
      for (const [hex, ids] of done) for (const id of ids) void db.intents.remove([hex, id]);
    }),
  );
}

export type { DriveHead, EntryRecord, FsIntent, MediaRecord };
