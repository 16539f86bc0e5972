import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes `dir` takes on disk, as `du` counts them: allocated blocks, each file once whatever its links (a drive
 * file and the store's hard link to it are one file).
 */
export async function diskUsage(dir: string, seen = new Set<string>()): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    const info = await lstat(path).catch(() => null);
    if (!info) continue;
    if (entry.isDirectory()) total += await diskUsage(path, seen);
    else {
      const key = `${info.dev}:${info.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      total += info.blocks * 512;
    }
  }
  return total;
}
