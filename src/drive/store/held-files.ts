import { createHash, randomBytes } from 'node:crypto';
import { access, copyFile, link, mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import type { CID } from 'multiformats/cid';
import { tempPathFor } from '../../fs/atomic.js';
import { leafBlock, type LeafPlace } from './file-leaves.js';

/** A leaf's place in a held file, as stored in LMDB. */
interface HeldLeaf extends LeafPlace {
  file: string;
}

/** A held file whose bytes no longer hash to the leaf they were held for: the store answers an error. */
export class ChangedOnDiskError extends Error {
  override readonly name = 'ChangedOnDiskError';
}

/**
 * Large files kept once: instead of copying a file's 256 KiB leaves into block files, the store keeps a
 * hard link to the file (`<store>/files/<id>`, the same bytes as the drive's file, written and flushed once by
 * staging) and, in LMDB, where each leaf's data sits in it. A leaf is rebuilt around its data when read and
 * checked against its CID, so a file changed in place is refused rather than served (as Kubo's filestore
 * does). The drive only ever replaces files by renaming, so the linked bytes stay the ones imported.
 */
export class HeldFiles {
  private readonly leaves: Database<HeldLeaf, string>;

  constructor(
    private readonly root: RootDatabase,
    private readonly dir: string,
  ) {
    this.leaves = root.openDB<HeldLeaf, string>({ name: 'file-leaves' });
  }

  has(key: string): boolean {
    return this.leaves.doesExist(key);
  }

  /**
   * Records the leaves not already held, then links `path` in. Places are written first: a crash in between
   * leaves places naming a file that does not exist, which `leaf` and the next `hold` treat as absent, and no
   * bytes that nothing refers to.
   */
  async hold(path: string, leaves: ReadonlyMap<string, LeafPlace>): Promise<void> {
    const file = randomBytes(16).toString('hex');
    const present = new Map<string, Promise<boolean>>();
    const fresh: [string, HeldLeaf][] = [];
    for (const [key, place] of leaves) {
      const known = this.leaves.get(key);
      if (known) {
        if (!present.has(known.file)) present.set(known.file, this.exists(known.file));
        if (await present.get(known.file)) continue;
      }
      fresh.push([key, { file, ...place }]);
    }
    if (fresh.length === 0) return;
    await this.root.transaction(() => {
      for (const [key, held] of fresh) void this.leaves.put(key, held);
    });
    await this.link(path, join(this.dir, file));
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

  private exists(file: string): Promise<boolean> {
    return access(join(this.dir, file)).then(
      () => true,
      () => false,
    );
  }

  /** A hard link, or a copy where the store is on another file system; flushed with its directory entry. */
  private async link(path: string, target: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    try {
      await link(path, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      const temp = tempPathFor(target);
      await copyFile(path, temp);
      const copy = await open(temp, 'r+');
      await copy.sync().finally(() => copy.close());
      await rename(temp, target);
    }
    const folder = await open(this.dir, 'r');
    await folder.sync().finally(() => folder.close());
  }
}
