import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode applied at creation: secrets and cookies are never readable by others, not even briefly. */
  mode?: number;
}

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Opens a new temp file next to `target` (same file system, so the final rename is atomic). */
export async function openTemp(target: string, mode = 0o600): Promise<{ path: string; handle: FileHandle }> {
  await mkdir(dirname(target), { recursive: true });
  const path = tempPathFor(target);
  return { path, handle: await open(path, 'wx', mode) };
}

/** Writes the whole file under a temp name, flushes it, then renames it over `target`. */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { path, handle } = await openTemp(target, options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(path, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
