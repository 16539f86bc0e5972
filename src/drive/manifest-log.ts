import { open, readFile, rm, stat, truncate } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { writeFileAtomic } from '../fs/atomic.js';
import { AppError } from '../http/errors.js';
import { DriveState, type DriveChange } from './drive-state.js';
import type { JournalRecord } from './journal.js';
import { emptyManifest, isManifest, type Manifest, type ManifestEntry } from './manifest.js';

/**
 * A drive's list on disk is `manifest.json`, a checkpoint, plus `.manifest.log`, the changes made since: one
 * JSON line per publication, numbered (`seq`), appended and flushed before the upload is answered. A change
 * costs one short append whatever the size of the drive; the checkpoint is rewritten whole later, off the
 * upload's path (DriveService), and records the last change it holds (`log_seq`), so that a log left behind
 * by a crash is replayed without applying anything twice.
 */
export const LOG_NAME = '.manifest.log';

export type Owner = { email: string; hex: string };

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
}

type LogRecord = (DriveChange & { seq: number }) | { moving: JournalRecord[] };

/** The drives in use, by manifest path; parsed once, then followed through their log. */
const loaded = new LRUCache<string, LoadedDrive>({ max: 256 });

const logPathOf = (manifestPath: string) => join(dirname(manifestPath), LOG_NAME);
const utf8 = new TextEncoder();

async function versionOf(path: string): Promise<string | null> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.ino}:${info.mtimeNs}:${info.size}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readCheckpoint(path: string, owner: Owner, at: string): Promise<DriveState> {
  let value: unknown = null;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return new DriveState(emptyManifest(owner, at), 0);
    if (!(error instanceof SyntaxError)) throw error;
  }
  // Written atomically, so a broken manifest was edited by hand: refuse rather than lose the list.
  if (!isManifest(value))
    throw new AppError(500, 'MANIFEST_UNREADABLE', 'The drive manifest is not readable.');
  const manifest: Manifest = { ...emptyManifest(owner, at), ...value };
  return new DriveState(manifest, manifest.log_seq ?? 0);
}

/** Complete lines from `offset` on; `shrunk` when the log is shorter than that (replaced since). */
async function readLog(path: string, offset: number) {
  const nothing = { records: [] as LogRecord[], consumed: 0, torn: false, shrunk: false };
  // Most reads find the log as they left it: one stat, no open.
  const size = await stat(path).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return 0;
      throw error;
    },
  );
  if (size <= offset) return { ...nothing, shrunk: size < offset };
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!handle) return { ...nothing, shrunk: offset > 0 };
  try {
    const bytes = Buffer.allocUnsafe(Math.max(0, (await handle.stat()).size - offset));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
    const end = bytesRead > 0 ? bytes.lastIndexOf(0x0a, bytesRead - 1) + 1 : 0;
    const text = bytes.toString('utf8', 0, end);
    const records =
      text.length > 0
        ? text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line) as LogRecord)
        : [];
    return { records, consumed: end, torn: end < bytesRead, shrunk: false };
  } finally {
    await handle.close();
  }
}

/**
 * The drive's live state: checkpoint plus log, read again only where either changed. Not a copy: change it
 * only through `commitChange`, with the drive lock held.
 */
export async function loadDrive(path: string, owner: Owner, at: string): Promise<LoadedDrive> {
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
    loaded.set(path, drive);
    return drive;
  }
  throw new AppError(500, 'MANIFEST_UNREADABLE', 'The drive manifest keeps changing while it is read.');
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
 * flushed: a process killed keeps what it wrote, and the change that follows is flushed with it.
 */
export async function noteMoving(path: string, drive: LoadedDrive, records: JournalRecord[]): Promise<void> {
  await append(path, drive, { moving: records }, false);
  drive.moving = records;
}

/** Appends one change to the log, flushed, then applies it to the state. Under the drive lock. */
export async function commitChange(path: string, drive: LoadedDrive, change: DriveChange): Promise<void> {
  await append(path, drive, { seq: drive.state.seq + 1, ...change }, true);
  drive.state.apply(change);
  drive.state.seq += 1;
  drive.moving = null;
}

async function append(path: string, drive: LoadedDrive, record: LogRecord, flush: boolean): Promise<void> {
  const logPath = logPathOf(path);
  // A drive's first change: its owner is written down first, since no line of the log names it.
  if (drive.version === null && drive.state.seq === 0) await writeCheckpoint(path, drive);
  if (drive.torn) await truncate(logPath, drive.offset);
  drive.torn = false;
  const line = utf8.encode(`${JSON.stringify(record)}\n`);
  const handle = await open(logPath, 'a', 0o644);
  try {
    await handle.write(line);
    if (flush) await handle.datasync();
  } catch (error) {
    // The caller is told the change failed: it must not come back at the next read.
    await truncate(logPath, drive.offset).catch(() => loaded.delete(path));
    throw error;
  } finally {
    await handle.close();
  }
  drive.offset += line.length;
}

/** Folds the log into manifest.json and removes it. Under the drive lock. False when there was nothing to fold. */
export async function checkpoint(path: string, owner: Owner, at: string): Promise<boolean> {
  const drive = await loadDrive(path, owner, at);
  // A batch's moves not settled yet stay in the log for the next writer.
  if ((drive.offset === 0 && !drive.torn) || drive.moving) return false;
  await writeCheckpoint(path, drive);
  // A log that outlives its checkpoint (a crash here) is only replayed up to what the checkpoint holds.
  await rm(logPathOf(path), { force: true });
  drive.offset = 0;
  drive.torn = false;
  return true;
}

/** Each entry's line, serialised once: entries are never modified, and a checkpoint writes them all. */
const entryLines = new WeakMap<ManifestEntry, string>();

function lineOf(entry: ManifestEntry): string {
  let line = entryLines.get(entry);
  if (line === undefined) entryLines.set(entry, (line = JSON.stringify(entry)));
  return line;
}

/** One file per line, so that the text is built from each entry's line and stays easy to read and grep. */
function checkpointText(drive: LoadedDrive): string {
  const { files, ...rest } = drive.state.manifest;
  const head = JSON.stringify({ ...rest, log_seq: drive.state.seq }).slice(0, -1);
  const lines = files.length > 0 ? `\n${files.map(lineOf).join(',\n')}\n` : '';
  return `${head},"files":[${lines}]}\n`;
}

async function writeCheckpoint(path: string, drive: LoadedDrive): Promise<void> {
  await writeFileAtomic(path, utf8.encode(checkpointText(drive)), { mode: 0o644 });
  drive.version = await versionOf(path);
}
