import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CLAIM_NAME, MARKER_NAME } from './layout.js';
import type { ScanFs } from './scripts.js';

/**
 * Creates `path` only if it does not exist yet (O_CREAT|O_EXCL), atomically across processes.
 * Returns false when another scan, process or earlier run got there first.
 */
export async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    // A marker left behind by a failed write (a full disk) would skip today's run, or hold a claim, for
    // nothing: gone, the next scan tries again.
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/**
 * Runs `work` while holding the claim file; returns `{claimed: false}` without running it when someone
 * else holds it. The claim is released whatever happens, so a failure is retried by the next scan.
 */
export async function withClaim<T>(
  path: string,
  work: () => Promise<T>,
): Promise<{ claimed: true; value: T } | { claimed: false }> {
  if (!(await createExclusive(path, `${process.pid}\n`))) return { claimed: false };
  try {
    return { claimed: true, value: await work() };
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * Deletes markers and claims of days before `today` (local `YYYY-MM-DD`): only today's decide anything,
 * and a station with thousands of users would otherwise gather thousands of files a day. Returns the count.
 */
export async function prunePastMarkers(
  tmpDir: string,
  today: string,
  fs: Pick<ScanFs, 'readdir'>,
): Promise<number> {
  const names: string[] = await fs.readdir(tmpDir).catch(() => []);
  let pruned = 0;
  for (const name of names) {
    const day = MARKER_NAME.exec(name)?.[1] ?? CLAIM_NAME.exec(name)?.[1];
    if (day && day < today) {
      await rm(join(tmpDir, name), { force: true });
      pruned++;
    }
  }
  return pruned;
}
