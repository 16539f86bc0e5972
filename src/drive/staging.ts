import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PayloadTooLargeError } from '../http/errors.js';

/** How much of the start of an upload is kept in memory, for the cookie-file check. */
export const HEAD_BYTES = 64 * 1024;

/** A complete upload on disk, not yet in any drive. */
export interface StagedFile {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes (up to HEAD_BYTES). */
  head: Buffer;
}

export class QuotaExceededError extends PayloadTooLargeError {
  constructor(limitBytes: number) {
    super(
      'QUOTA_EXCEEDED',
      `The file does not fit in the drive quota of ${Math.floor(limitBytes / 1048576)} MB.`,
    );
  }
}

/**
 * Uploads land here first (under hidden names, never published), are hashed on the way, and are renamed
 * into a drive only once complete and accepted: a crash or a refusal never leaves a half file in a drive.
 */
export class StagingArea {
  constructor(readonly dir: string) {}

  /** Streams `source` to a staging file; more than `maxBytes` aborts with 413 and leaves nothing behind. */
  async receive(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StagedFile> {
    // Private until accepted: an upload may turn out to be someone's cookie file (CONTRACT §8).
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `.${randomBytes(12).toString('hex')}.part`);
    const handle = await open(path, 'wx', 0o600);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new QuotaExceededError(maxBytes);
        hash.update(chunk);
        if (headLength < HEAD_BYTES) {
          const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - headLength));
          head.push(part);
          headLength += part.length;
        }
        await handle.write(chunk);
      }
      await handle.sync();
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(path, { force: true });
      throw error;
    }
    return { path, size, sha256: hash.digest('hex'), head: Buffer.concat(head) };
  }

  async discard(staged: Pick<StagedFile, 'path'>): Promise<void> {
    await rm(staged.path, { force: true });
  }

  /** Moves a staged file into place; across file systems it is copied first. */
  async moveTo(staged: Pick<StagedFile, 'path'>, target: string): Promise<void> {
    try {
      await rename(staged.path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const temp = join(dirname(target), `.${randomBytes(6).toString('hex')}.tmp`);
      await copyFile(staged.path, temp);
      await rename(temp, target);
      await rm(staged.path, { force: true });
    }
  }

  /** Removes what crashed uploads left behind. */
  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > olderThanMs) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}
