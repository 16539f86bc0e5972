import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManifestEntry } from './manifest.js';

/** An upload between "file moved into the drive" and "change logged" (manifest-log.ts, noteMoving). */
export interface JournalRecord {
  staged: string;
  final: string;
  entry: ManifestEntry;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Settles the files of a batch whose change never came: a file that made it into its folder gets its entry
 * (returned, to be published), a file that did not is dropped, and staged leftovers are removed.
 */
export async function settleMoves(
  records: readonly JournalRecord[],
  inManifest: (path: string) => boolean,
): Promise<ManifestEntry[]> {
  const recovered: ManifestEntry[] = [];
  for (const record of records) {
    if ((await exists(record.final)) && !inManifest(record.entry.path)) recovered.push(record.entry);
    await rm(record.staged, { force: true });
  }
  return recovered;
}

/**
 * Earlier versions noted a batch's moves as a file each in `APP/uDRIVE/.journal/` (one record, or a list for
 * a batch): settled the same way, then removed, so that a drive a crash left that way is finished.
 */
export async function replayLegacyJournal(
  driveDir: string,
  inManifest: (path: string) => boolean,
): Promise<ManifestEntry[]> {
  const dir = join(driveDir, '.journal');
  const names = await readdir(dir).catch(() => [] as string[]);
  const recovered: ManifestEntry[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
    const recordPath = join(dir, name);
    const parsed = JSON.parse(await readFile(recordPath, 'utf8')) as JournalRecord | JournalRecord[];
    recovered.push(...(await settleMoves(Array.isArray(parsed) ? parsed : [parsed], inManifest)));
    await rm(recordPath, { force: true });
  }
  return recovered;
}
