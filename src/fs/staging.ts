import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { moveFile } from './atomic.js';
import { HeadBytes, sizeRefusal, type SizeLimit } from './head-bytes.js';

/** What a reception holds in memory before writing it out. */
const WRITE_BATCH_BYTES = 256 * 1024;
/** ...and at most this many chunks (a client sending tiny ones costs no more than one write each). */
const WRITE_BATCH_CHUNKS = 64;

/** A complete file received into the staging area, not yet anywhere else. */
export interface StagedFile {
  path: string;
  size: number;
  /** SHA-256 hex of the content, computed while it streamed. */
  sha256: string;
  /** The first bytes (up to the area's `headBytes`), for content checks such as the cookie-file test. */
  head: Buffer;
  /** The permissions the file was made with (see `StagingArea`'s `modeFor`), subject to the umask. */
  mode: number;
}

/** What a staged file is made with unless its area's `modeFor` says otherwise: its owner's alone. */
export const PRIVATE_MODE = 0o600;

/**
 * Files land here first, under hidden names, in a mode-700 folder, mode 600 unless the area's `modeFor` tells
 * from their first bytes that they cannot be secrets (an upload may turn out to be someone's cookie file),
 * hashed on the way, and are moved into place only once complete and accepted: a crash or a refusal never
 * leaves a half file anywhere else. Keep it on the file system of its targets so that `moveTo` is a rename.
 */
export class StagingArea {
  private lastSweep = 0;
  /**
   * Staging names: this area's random prefix and a counter. Unique among the processes sharing the folder
   * (PM2 workers, the CLI) without drawing random bytes for every upload; O_EXCL refuses a clash anyway.
   */
  private readonly namePrefix = randomBytes(8).toString('hex');
  private staged = 0;
  /** Staged files already moved into place: discarding one has nothing left to remove. */
  private readonly moved = new WeakSet<object>();

  constructor(
    readonly dir: string,
    /** How much of the start of each file is kept in memory (`StagedFile.head`). */
    readonly headBytes: number,
    /**
     * The permissions of a new staged file, judged on its first `headBytes` (or the whole file, when
     * shorter): made with the mode its destination wants, it is moved there without a `chmod`. The folder is
     * 700, so no staged file is readable by others whatever its mode; a file moved elsewhere with another
     * mode is changed before its move (`moveTo`). Only asked once the head is complete.
     */
    private readonly modeFor: (head: Buffer) => number = () => PRIVATE_MODE,
  ) {}

  /**
   * Streams `source` to a staging file; a broken stream or an exceeded limit leaves nothing behind. A file
   * that arrives within one write (WRITE_BATCH_BYTES) is made only once complete and written with O_DSYNC:
   * made, written, flushed and closed in three calls instead of four.
   */
  async receive(source: AsyncIterable<Uint8Array>, limits: readonly SizeLimit[]): Promise<StagedFile> {
    const path = join(this.dir, `.${this.namePrefix}-${(this.staged++).toString(36)}.part`);
    let handle: FileHandle | null = null;
    const hash = createHash('sha256');
    const head = new HeadBytes(this.headBytes);
    let size = 0;
    // A limit that does not apply is not asked again once the head is complete (the test may parse it).
    let pending = limits;
    const unwritten: Uint8Array[] = [];
    let unwrittenBytes = 0;
    let mode = PRIVATE_MODE;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        head.add(chunk);
        if (pending.some((limit) => size > limit.maxBytes)) {
          const error = sizeRefusal(pending, size, head.bytes());
          if (error) throw error;
          if (head.complete) pending = pending.filter((limit) => size <= limit.maxBytes);
        }
        hash.update(chunk);
        // Network chunks are small (16–64 KiB): written a few hundred KiB at a time, one call instead of many.
        unwritten.push(chunk);
        unwrittenBytes += chunk.byteLength;
        if (unwrittenBytes >= WRITE_BATCH_BYTES || unwritten.length >= WRITE_BATCH_CHUNKS) {
          if (!handle) {
            // Many tiny chunks may get here before the head is complete: such a file stays private.
            if (head.complete) mode = this.modeFor(head.bytes());
            handle = await this.create(path, 0, mode);
          }
          await handle.writev(unwritten);
          unwritten.length = 0;
          unwrittenBytes = 0;
        }
      }
      if (handle) {
        if (unwritten.length > 0) await handle.writev(unwritten);
        await handle.sync();
      } else {
        mode = this.modeFor(head.bytes());
        handle = await this.create(path, constants.O_DSYNC, mode);
        if (unwritten.length > 0) await handle.writev(unwritten);
      }
      await handle.close();
    } catch (error) {
      if (handle) {
        await handle.close().catch(() => undefined);
        await rm(path, { force: true });
      }
      throw error;
    }
    return { path, size, sha256: hash.digest('hex'), head: head.bytes(), mode };
  }

  /** A new staging file; the folder is made on the first upload (or again if removed), not checked each time. */
  private async create(path: string, flags: number, mode: number): Promise<FileHandle> {
    const how = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | flags;
    return open(path, how, mode).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      return open(path, how, mode);
    });
  }

  /** Removes a staged file, if it is still there (a file moved into place is not). */
  async discard(staged: Pick<StagedFile, 'path'>): Promise<void> {
    // Callers discard in a `finally`, most often a file moved in: no system call, and no ENOENT to build.
    if (this.moved.has(staged)) return;
    // unlink, not rm: one system call where rm's walk asks first what the path is.
    await unlink(staged.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /**
   * Moves a staged file into place with `mode` (see `moveFile`: across file systems, a copy), set before the
   * move when the file was made with another: it never shows at `target` with other permissions.
   */
  async moveTo(
    staged: Pick<StagedFile, 'path' | 'mode'>,
    target: string,
    mode = PRIVATE_MODE,
  ): Promise<void> {
    if (mode !== staged.mode) await chmod(staged.path, mode);
    await moveFile(staged.path, target, mode);
    this.moved.add(staged);
  }

  /**
   * At most once per `periodMs`, sweeps in the background what receptions left behind a day of periods
   * ago. Staged files are compared with their mtimes, which are wall-clock time, hence Date.now().
   */
  sweepEvery(periodMs: number, onError: (error: unknown) => void): void {
    const now = Date.now();
    if (now - this.lastSweep < periodMs) return;
    this.lastSweep = now;
    void this.sweep(24 * periodMs).catch(onError);
  }

  /**
   * Removes the files this area staged that were neither moved nor discarded: once its users have stopped
   * (the station closing after cutting the uploads still running), so that a stop leaves no staged part.
   * Other processes' files (PM2 workers, the CLI) have other prefixes and stay.
   */
  async removeOwn(): Promise<number> {
    const own = `.${this.namePrefix}-`;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const mine = names.filter((name) => name.startsWith(own) && name.endsWith('.part'));
    await Promise.all(mine.map((name) => rm(join(this.dir, name), { force: true })));
    return mine.length;
  }

  /** Removes what interrupted receptions left behind (files untouched for `olderThanMs`). */
  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
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
