import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import type { ManifestEntry } from './manifest.js';

/** An upload between "file renamed into the drive" and "manifest written". */
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
 * Write-ahead records of the one step an upload cannot do atomically (renaming the file into its folder,
 * then rewriting the manifest). Replayed under the drive lock by the next writer: a file that made it into
 * its folder gets its manifest entry, a file that did not is dropped. `APP/uDRIVE/.journal/`, hidden.
 */
export class Journal {
  constructor(private readonly dir: string) {}

  /** One record file (one fsync) for a whole batch of files. */
  async begin(records: readonly JournalRecord[]): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${randomBytes(8).toString('hex')}.json`);
    await writeFileAtomic(path, JSON.stringify(records));
    return path;
  }

  async end(recordPath: string): Promise<void> {
    await rm(recordPath, { force: true });
  }

  /** Entries to add to the manifest (files that are in place); staged leftovers are removed. */
  async replay(inManifest: (path: string) => boolean): Promise<ManifestEntry[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const recovered: ManifestEntry[] = [];
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      const recordPath = join(this.dir, name);
      // A batch is a list; versions before group commits wrote one record per file.
      const parsed = JSON.parse(await readFile(recordPath, 'utf8')) as JournalRecord | JournalRecord[];
      for (const record of Array.isArray(parsed) ? parsed : [parsed]) {
        if ((await exists(record.final)) && !inManifest(record.entry.path)) recovered.push(record.entry);
        await rm(record.staged, { force: true });
      }
      await rm(recordPath, { force: true });
    }
    return recovered;
  }
}
