import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { within } from '../../fs/paths.js';
import { DRIVE_CATEGORIES } from '../categories.js';
import type { MediaRecord } from '../db/records.js';
import { isManifest, type ManifestEntry } from '../manifest.js';

/**
 * A drive as versions before the drive index left it (up to commit 37b25b6): `manifest.json` (a checkpoint
 * with `log_seq`, or an older indented list without), `.manifest.log` (JSON lines of changes numbered `seq`,
 * and `{"moving": …}` notes of files being moved in), an earlier version's `.journal/*.json` notes, and
 * `.media/<wrapper>.json` records. Read to be imported once into the index (migration.ts); never written.
 */
export interface LegacyDrive {
  /** The list as its files say, in the order they were added. */
  entries: ManifestEntry[];
  /** The log skips a number (a line lost): the folders, not the list, say which files the drive holds. */
  gap: boolean;
  /** Files an interrupted upload put in a folder but never listed (moving notes, `.journal`). */
  interrupted: ManifestEntry[];
  /** Media records by wrapper CID. */
  media: Map<string, MediaRecord>;
  /** The root the drive published last, and when it changed last. */
  root: string | null;
  updatedAt: string | null;
}

/** The names of the files an earlier version left in a drive's folder, to be removed once imported. */
export const LEGACY_FILES = ['.manifest.log', '.journal', '.media', '.drive.lock.wanted'];

interface LogChange {
  seq: number;
  add?: ManifestEntry[];
  remove?: string[];
  tree?: { root_cid?: string | null; updated_at?: string };
}

interface MovingNote {
  entry: ManifestEntry;
}

type LogLine = LogChange | { moving: MovingNote[] };

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/** The log's complete, readable lines; a line cut by a crash (the last) or garbled is skipped. */
async function readLog(path: string): Promise<LogLine[]> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines: LogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // torn or garbled: what it said is lost, as if the change never came (a gap if others follow)
    }
  }
  return lines;
}

/** Whether a drive folder holds anything of an earlier version's layout. */
export async function hasLegacyDrive(driveDir: string): Promise<boolean> {
  const found = await Promise.all(
    ['manifest.json', ...LEGACY_FILES].map((name) => exists(join(driveDir, name))),
  );
  return found.some(Boolean);
}

const isEntry = (value: unknown): value is ManifestEntry =>
  typeof (value as ManifestEntry | null)?.path === 'string' &&
  typeof (value as ManifestEntry).cid === 'string';

export async function readLegacyDrive(driveDir: string): Promise<LegacyDrive> {
  const checkpoint = await readJson(join(driveDir, 'manifest.json'));
  const manifest = isManifest(checkpoint) ? checkpoint : null;
  const list = new Map<string, ManifestEntry>();
  for (const entry of manifest?.files ?? []) if (isEntry(entry)) list.set(entry.path, entry);
  let seq = manifest?.log_seq ?? 0;
  let gap = checkpoint === null; // a manifest.json that does not parse: only the folders can tell
  let root = manifest?.root_cid ?? null;
  let updatedAt = manifest?.updated_at ?? null;
  let moving: MovingNote[] = [];
  for (const line of await readLog(join(driveDir, '.manifest.log'))) {
    if ('moving' in line) {
      moving = Array.isArray(line.moving) ? line.moving : [];
      continue;
    }
    moving = [];
    if (typeof line.seq !== 'number' || line.seq <= seq) continue; // already in the checkpoint
    if (line.seq !== seq + 1) gap = true;
    seq = line.seq;
    for (const path of line.remove ?? []) list.delete(path);
    for (const entry of line.add ?? []) if (isEntry(entry)) list.set(entry.path, entry);
    root = line.tree?.root_cid ?? root;
    updatedAt = line.tree?.updated_at ?? updatedAt;
  }
  const notes = [...moving];
  const journal = join(driveDir, '.journal');
  for (const name of (await readdir(journal).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.json'),
  )) {
    const record = await readJson(join(journal, name));
    notes.push(...((Array.isArray(record) ? record : [record]) as MovingNote[]));
  }
  // A note names its file by an absolute path of the machine that wrote it: the drive-relative path is used.
  const interrupted: ManifestEntry[] = [];
  for (const note of notes) {
    const entry = note?.entry;
    if (!isEntry(entry) || list.has(entry.path)) continue;
    if (await exists(within(driveDir, entry.category, entry.name))) interrupted.push(entry);
  }
  return { entries: [...list.values()], gap, interrupted, media: await readMedia(driveDir), root, updatedAt };
}

async function readMedia(driveDir: string): Promise<Map<string, MediaRecord>> {
  const media = new Map<string, MediaRecord>();
  const folder = join(driveDir, '.media');
  for (const name of (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json'))) {
    const record = (await readJson(join(folder, name))) as MediaRecord | null | undefined;
    if (typeof record?.bundle === 'string' && typeof record.path === 'string')
      media.set(name.slice(0, -'.json'.length), record);
  }
  return media;
}

/** The files each category folder holds (hidden ones left out): what a drive with a gap is rebuilt from. */
export async function folderFiles(
  driveDir: string,
): Promise<{ category: (typeof DRIVE_CATEGORIES)[number]; name: string }[]> {
  const found: { category: (typeof DRIVE_CATEGORIES)[number]; name: string }[] = [];
  for (const category of DRIVE_CATEGORIES) {
    const folder = join(driveDir, category);
    for (const item of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (item.isFile() && !item.name.startsWith('.')) found.push({ category, name: item.name });
    }
  }
  return found;
}
