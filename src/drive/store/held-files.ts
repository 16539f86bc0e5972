import { createHash } from 'node:crypto';
import { access, copyFile, link, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from 'lmdb';
import type { CID } from 'multiformats/cid';
import { tempPathFor } from '../../fs/atomic.js';
import { holderIsGone, processInstance } from '../../process/identity.js';
import type { HeldLeaf } from '../db/records.js';
import { leafBlock } from './file-leaves.js';

/**
 * A held file's name: the process that links it (`processInstance`, its `:` as `.`) and a number of its own,
 * so that a collection knows, from the name alone, whether the import behind an unnamed link may still be
 * waiting for its change (holderOfHeld).
 */
export function heldName(instance: string, n: number): string {
  return `${instance.replaceAll(':', '.')}.${n.toString(36)}`;
}

/** The process a held file's name says linked it, or null for a name of another form (earlier versions'). */
export function holderOfHeld(name: string): string | null {
  const parts = name.split('.');
  return parts.length === 4 ? parts.slice(0, 3).join(':') : null;
}

/** Names this process gave held files, for imports whose change has not committed yet: see inFlightHere. */
const inFlight = new Set<string>();
let made = 0;

/**
 * Whether a held file nobody names yet may still be waiting for its change: for a name this process gave, it
 * knows; for another process's, it may while that process runs and the link is recent (`recentMs`).
 */
export function mayBeInFlight(name: string, linkedAgoMs: number, recentMs: number): boolean {
  const holder = holderOfHeld(name);
  if (holder === processInstance) return inFlight.has(name);
  return holder !== null && !holderIsGone(holder) && linkedAgoMs < recentMs;
}

/** A held file whose bytes no longer hash to the leaf they were held for: the store answers an error. */
export class ChangedOnDiskError extends Error {
  override readonly name = 'ChangedOnDiskError';
}

/**
 * Large files kept once: instead of copying a file's 256 KiB leaves into the store, the store keeps a hard
 * link to the file (`<store>/files/<id>`, the same bytes as the drive's file, written and flushed once by
 * staging) and, in the drive index, where each leaf's data sits in it. A leaf is rebuilt around its data when
 * read and checked against its CID, so a file changed in place is refused rather than served (as Kubo's
 * filestore does). The drive only ever replaces files by renaming, so the linked bytes stay the ones
 * imported. The link is made when the file is imported, under a name that says which process made it
 * (`heldName`); its leaves' places are written with the change that adds the file (db/commit.ts). A link
 * nothing names is the collector's (gc/sweep.ts) unless its import may still be waiting for its change
 * (`mayBeInFlight`), which costs no write to tell.
 */
export class HeldFiles {
  constructor(
    private readonly leaves: Pick<Database<HeldLeaf, string>, 'get' | 'doesExist'>,
    readonly dir: string,
  ) {}

  has(key: string): boolean {
    return this.leaves.doesExist(key);
  }

  /**
   * The change these held files were linked for is over: committed (the index names them now), or not
   * (refused, failed, not needed: they are removed).
   */
  async release(names: Iterable<string>, committed: boolean): Promise<void> {
    for (const name of names) {
      if (!committed) await unlink(join(this.dir, name)).catch(() => undefined);
      inFlight.delete(name);
    }
  }

  fileExists(name: string): Promise<boolean> {
    return access(join(this.dir, name)).then(
      () => true,
      () => false,
    );
  }

  /** A name for a file about to be held (its leaves are placed under it before it is linked): see heldName. */
  newName(): string {
    const name = heldName(processInstance, made++);
    inFlight.add(name);
    return name;
  }

  /**
   * Links `path` in as `name` (a copy where the store is on another file system); resolves once the link is
   * on disk. The folder's flush is shared by every link made meanwhile (a group flush, as a commit's).
   */
  async link(path: string, name: string): Promise<void> {
    const target = join(this.dir, name);
    try {
      await link(path, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(this.dir, { recursive: true });
        await link(path, target);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      const temp = tempPathFor(target);
      await copyFile(path, temp);
      const copy = await open(temp, 'r+');
      await copy.sync().finally(() => copy.close());
      await rename(temp, target);
    }
    await this.flushed();
  }

  /** The folder flushed after every link made so far: one flush running, at most one more asked for. */
  private flushing: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  private flushed(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.flushDir().finally(() => (this.flushing = null));
      return this.flushing;
    }
    this.next ??= this.flushing
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.flushed();
      });
    return this.next;
  }

  private async flushDir(): Promise<void> {
    const folder = await open(this.dir, 'r');
    await folder.sync().finally(() => folder.close());
  }

  /** The leaf block for `cid`, read from its held file; undefined when not held (or its file is gone). */
  async leaf(cid: CID): Promise<Uint8Array | undefined> {
    const held = this.leaves.get(cid.toString());
    if (!held) return undefined;
    const handle = await open(join(this.dir, held.file), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return undefined;
    try {
      const data = Buffer.allocUnsafe(held.length);
      const { bytesRead } = await handle.read(data, 0, held.length, held.offset);
      const block = leafBlock(data.subarray(0, bytesRead));
      const digest = createHash('sha256').update(block).digest();
      if (!digest.equals(cid.multihash.digest))
        throw new ChangedOnDiskError(`block ${cid.toString()}: its file changed on disk`);
      return block;
    } finally {
      await handle.close();
    }
  }
}
