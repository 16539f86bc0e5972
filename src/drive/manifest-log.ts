import { open, rm, truncate, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { StationError } from '../errors.js';
import type { DriveState, DriveChange } from './drive-state.js';
import type { JournalRecord } from './journal.js';
import type { Manifest } from './manifest.js';
import type { Tenure } from './lock.js';
import {
  readCheckpoint,
  readLog,
  versionOf,
  writeCheckpoint,
  type LogRecord,
  type Owner,
} from './manifest-files.js';

export type { Owner } from './manifest-files.js';

/**
 * A drive's list on disk is `manifest.json`, a checkpoint, plus `.manifest.log`, the changes made since: one
 * JSON line per publication, numbered (`seq`), appended and flushed before the upload is answered. A change
 * costs one short append whatever the size of the drive; the checkpoint is rewritten whole later, off the
 * upload's path (DriveService), and records the last change it holds (`log_seq`), so that a log left behind
 * by a crash is replayed without applying anything twice.
 */
export const LOG_NAME = '.manifest.log';

/** A drive as loaded: its state and how far into the log it has read. */
export interface LoadedDrive {
  state: DriveState;
  /** `ino:mtime:size` of manifest.json when it was read (null: there was none). */
  version: string | null;
  /** Bytes of the log applied. */
  offset: number;
  /** The log ends with a line a crashed writer did not finish: cut before the next append. */
  torn: boolean;
  /** Files a batch was moving into the drive when the log ended: its change never came (see noteMoving). */
  moving: JournalRecord[] | null;
  /** The drive lock's holding (lock.ts) in which this state was last read from disk or written. */
  tenure?: Tenure;
}

/** The drives in use, by manifest path; parsed once, then followed through their log. */
const loaded = new LRUCache<string, LoadedDrive>({ max: 256 });

/**
 * Logs kept open for the tenure of the drive lock they were opened in, by log path: while this process holds
 * the lock without a break, no other process folds (removes) the log, so one opening serves every append of
 * the tenure. Closed by the checkpoint that removes the log (always under the lock), by a failed append, or
 * when a later tenure needs the log: a handle from an earlier tenure may name a log another process removed.
 */
const keptLogs = new Map<string, { tenure: Tenure; handle: FileHandle }>();

const logPathOf = (manifestPath: string) => join(dirname(manifestPath), LOG_NAME);
const utf8 = new TextEncoder();

/**
 * The drive's live state: checkpoint plus log, read again only where either changed. Not a copy: change it
 * only through `commitChange`, with the drive lock held. A writer passes its `tenure`: while this process
 * holds the lock without a break, no other process changes the drive, so the state is not checked again.
 */
export async function loadDrive(
  path: string,
  owner: Owner,
  at: string,
  tenure?: Tenure,
): Promise<LoadedDrive> {
  const known = loaded.get(path);
  if (tenure !== undefined && known?.tenure === tenure) return known;
  for (let attempt = 0; attempt < 3; attempt++) {
    const version = await versionOf(path);
    let drive = loaded.get(path);
    if (drive?.version !== version || !drive) {
      drive = { state: await readCheckpoint(path, owner, at), version, offset: 0, torn: false, moving: null };
    }
    const log = await readLog(logPathOf(path), drive.offset);
    let consistent = !log.shrunk;
    for (const record of consistent ? log.records : []) {
      if ('moving' in record) {
        drive.moving = record.moving;
        continue;
      }
      drive.moving = null;
      if (record.seq <= drive.state.seq) continue; // already in the checkpoint
      if (record.seq !== drive.state.seq + 1) {
        consistent = false; // a checkpoint was written between our two reads: start again
        break;
      }
      drive.state.apply(record);
      drive.state.seq = record.seq;
    }
    if (!consistent) {
      loaded.delete(path);
      continue;
    }
    drive.offset += log.consumed;
    drive.torn = log.torn;
    if (tenure !== undefined) drive.tenure = tenure;
    loaded.set(path, drive);
    return drive;
  }
  throw new StationError('MANIFEST_UNREADABLE', 'The drive manifest keeps changing while it is read.');
}

/**
 * The drive as this process last saw it, without asking the disk, or loaded when it has not seen it: for
 * checks that the writer makes again under the lock (quota, same content), so a moment's lag is harmless.
 */
export async function recentDrive(path: string, owner: Owner, at: string): Promise<LoadedDrive> {
  return loaded.get(path) ?? loadDrive(path, owner, at);
}

/** A copy of the manifest, for readers (no lock needed). */
export async function readManifest(path: string, owner: Owner, at: string): Promise<Manifest> {
  return (await loadDrive(path, owner, at)).state.snapshot();
}

/**
 * Notes, before a batch moves its files from staging into the drive's folders, where each goes: if the
 * process dies before the batch's change is logged, the next writer settles those files (writer.ts). Not
 * flushed: a process killed keeps what it wrote, and the change that follows is flushed with it. Under the
 * drive lock, in `tenure`.
 */
export async function noteMoving(
  path: string,
  drive: LoadedDrive,
  records: JournalRecord[],
  tenure: Tenure,
): Promise<void> {
  await append(path, drive, { moving: records }, { flush: false, tenure });
  drive.moving = records;
}

/** Appends one change to the log, flushed, then applies it to the state. Under the drive lock, in `tenure`. */
export async function commitChange(
  path: string,
  drive: LoadedDrive,
  change: DriveChange,
  tenure: Tenure,
): Promise<void> {
  await append(path, drive, { seq: drive.state.seq + 1, ...change }, { flush: true, tenure });
  drive.state.apply(change);
  drive.state.seq += 1;
  drive.moving = null;
}

/** Closes the drive's log if this process keeps it open (see keptLogs). Under the drive lock. */
async function closeLog(path: string): Promise<void> {
  const logPath = logPathOf(path);
  const kept = keptLogs.get(logPath);
  keptLogs.delete(logPath);
  await kept?.handle.close();
}

/**
 * Lets go of a drive whose folder is gone (its user deleted, a test's directory): the log this process kept
 * open for it is closed and its state forgotten, so that a removed drive holds no file handle until restart.
 */
export async function releaseDrive(path: string): Promise<void> {
  loaded.delete(path);
  await closeLog(path).catch(() => undefined);
}

/** The log opened in append mode (it writes at its end), once per tenure of the drive lock. */
async function logHandle(logPath: string, tenure: Tenure): Promise<FileHandle> {
  const kept = keptLogs.get(logPath);
  if (kept?.tenure === tenure) return kept.handle;
  keptLogs.delete(logPath);
  await kept?.handle.close().catch(() => undefined);
  const handle = await open(logPath, 'a', 0o644);
  keptLogs.set(logPath, { tenure, handle });
  return handle;
}

async function append(
  path: string,
  drive: LoadedDrive,
  record: LogRecord,
  options: { flush: boolean; tenure: Tenure },
): Promise<void> {
  const logPath = logPathOf(path);
  // A drive's first change: its owner is written down first, since no line of the log names it.
  if (drive.version === null && drive.state.seq === 0) await writeCheckpoint(path, drive);
  if (drive.torn) await truncate(logPath, drive.offset);
  drive.torn = false;
  const line = utf8.encode(`${JSON.stringify(record)}\n`);
  try {
    const handle = await logHandle(logPath, options.tenure);
    await handle.write(line);
    if (options.flush) await handle.datasync();
  } catch (error) {
    await closeLog(path).catch(() => undefined);
    // The caller is told the change failed: it must not come back at the next read.
    await truncate(logPath, drive.offset).catch(() => loaded.delete(path));
    throw error;
  }
  drive.offset += line.length;
}

/** Folds the log into manifest.json and removes it. Under the drive lock. False when there was nothing to fold. */
export async function checkpoint(path: string, owner: Owner, at: string): Promise<boolean> {
  const drive = await loadDrive(path, owner, at);
  // The next change (in this tenure or a later one) opens the log again: the one removed here is gone.
  await closeLog(path);
  // A batch's moves not settled yet stay in the log for the next writer.
  if ((drive.offset === 0 && !drive.torn) || drive.moving) return false;
  await writeCheckpoint(path, drive);
  // A log that outlives its checkpoint (a crash here) is only replayed up to what the checkpoint holds.
  await rm(logPathOf(path), { force: true });
  drive.offset = 0;
  drive.torn = false;
  return true;
}
