import { open, readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic.js';
import { StationError } from '../errors.js';
import { DriveState, type DriveChange } from './drive-state.js';
import type { JournalRecord } from './journal.js';
import { emptyManifest, isManifest, type Manifest, type ManifestEntry } from './manifest.js';

/** How a drive's list is kept on disk: the checkpoint (manifest.json) and the log's lines (manifest-log.ts). */

export type Owner = { email: string; hex: string };

export type LogRecord = (DriveChange & { seq: number }) | { moving: JournalRecord[] };

const utf8 = new TextEncoder();

/** `ino:mtime:size` of a file, null when there is none: tells whether a checkpoint changed since it was read. */
export async function versionOf(path: string): Promise<string | null> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.ino}:${info.mtimeNs}:${info.size}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function readCheckpoint(path: string, owner: Owner, at: string): Promise<DriveState> {
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
    throw new StationError('MANIFEST_UNREADABLE', 'The drive manifest is not readable.');
  const manifest: Manifest = { ...emptyManifest(owner, at), ...value };
  return new DriveState(manifest, manifest.log_seq ?? 0);
}

export /** Complete lines from `offset` on; `shrunk` when the log is shorter than that (replaced since). */
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

/** Each entry's line, serialised once: entries are never modified, and a checkpoint writes them all. */
const entryLines = new WeakMap<ManifestEntry, string>();

function lineOf(entry: ManifestEntry): string {
  let line = entryLines.get(entry);
  if (line === undefined) entryLines.set(entry, (line = JSON.stringify(entry)));
  return line;
}

/** One file per line, so that the text is built from each entry's line and stays easy to read and grep. */
function checkpointText(drive: { state: DriveState }): string {
  const { files, ...rest } = drive.state.manifest;
  const head = JSON.stringify({ ...rest, log_seq: drive.state.seq }).slice(0, -1);
  const lines = files.length > 0 ? `\n${files.map(lineOf).join(',\n')}\n` : '';
  return `${head},"files":[${lines}]}\n`;
}

export async function writeCheckpoint(
  path: string,
  drive: { state: DriveState; version: string | null },
): Promise<void> {
  await writeFileAtomic(path, utf8.encode(checkpointText(drive)), { mode: 0o644 });
  drive.version = await versionOf(path);
}
