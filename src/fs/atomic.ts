import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode applied at creation: secrets and cookies are never readable by others, not even briefly. */
  mode?: number;
}

/** Exactly the names `tempPathFor` gives (`.<basename>.<12 hex>.tmp`): what a crash may leave behind. */
export const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

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
export function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  return replaceAtomically(target, options.mode ?? 0o644, (handle) => handle.writeFile(data));
}

/** As `writeFileAtomic`, chunk by chunk: a large file (a copy of an upload) is never held whole in memory. */
export function writeStreamAtomic(
  target: string,
  source: AsyncIterable<Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  return replaceAtomically(target, options.mode ?? 0o644, async (handle) => {
    // Written chunk by chunk: a pipeline into a FileHandle stream with autoClose off never settles.
    for await (const chunk of source) await handle.write(chunk);
  });
}

/**
 * Moves `source` over `target`: a rename. Across file systems, a copy written as `writeStreamAtomic` writes
 * (mode `mode` from creation, flushed, renamed in), then the source removed: never a half file at `target`.
 */
export async function moveFile(source: string, target: string, mode: number): Promise<void> {
  try {
    await rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await writeStreamAtomic(target, createReadStream(source), { mode });
    await rm(source, { force: true });
  }
}

/** Fills a new temp file next to `target`, flushes, renames it over `target`; on failure removes the temp. */
async function replaceAtomically(
  target: string,
  mode: number,
  fill: (handle: FileHandle) => Promise<unknown>,
): Promise<void> {
  const { path, handle } = await openTemp(target, mode);
  try {
    await fill(handle);
    await handle.sync();
    await handle.close();
    await rename(path, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
