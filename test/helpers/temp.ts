import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  cleanup: () => Promise<void>;
}

/** A fresh directory under the OS temp dir, removed by the returned cleanup. */
export async function tempDir(prefix = 'station-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** Every file under `dir` an interrupted write or upload leaves (temp files, staged parts); none if it is absent. */
export async function leftoverFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && /\.(tmp|part)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}
