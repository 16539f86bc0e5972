import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockStorage, SMALL_FILE_BYTES } from '../../../src/drive/store/block-storage.js';
import { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { tempDir } from '../../helpers/temp.js';
import { openDriveAt } from '../drive-on-disk.js';
import { collect, pseudoRandom } from '../helpers.js';

async function block(text: string) {
  const bytes = Buffer.from(text);
  return { cid: CID.createV0(await sha256.digest(bytes)), bytes };
}

const blockFiles = async (root: string): Promise<number> => {
  const shards = await readdir(join(root, 'blocks')).catch(() => [] as string[]);
  let count = 0;
  for (const shard of shards) count += (await readdir(join(root, 'blocks', shard))).length;
  return count;
};

describe('the embedded store’s block storage', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('block-storage-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('keeps a small file in LMDB and a large one’s data, past the first MiB, in block files', async () => {
    const root = join(dir.path, 'store');
    const store = await EmbeddedStore.open(root);
    try {
      const photo = await store.add(pseudoRandom(200 * 1024, 'photo'));
      expect(await blockFiles(root)).toBe(0);
      const film = await store.add(pseudoRandom(3 * SMALL_FILE_BYTES, 'film'));
      // 12 chunks of 256 KiB: the first 4 (1 MiB) in LMDB, the other 8 in files.
      expect(await blockFiles(root)).toBe(8);
      expect(
        (await collect(store.cat(photo.cid))).equals(await collect(pseudoRandom(200 * 1024, 'photo'))),
      ).toBe(true);
      const read = await collect(store.cat(film.cid));
      expect(read.equals(await collect(pseudoRandom(3 * SMALL_FILE_BYTES, 'film')))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('is shared by every process that opens it: what one commits, another reads and unpins', async () => {
    const root = join(dir.path, 'store');
    const [first, second] = [await BlockStorage.open(root), await BlockStorage.open(root)];
    try {
      const node = await block('a directory node');
      await first.put(node.cid, node.bytes);
      await first.pin(node.cid.toString());
      // Written, not yet committed: this process already sees it; other processes once committed.
      expect(await first.has(node.cid)).toBe(true);
      expect(first.pins()).toEqual([node.cid.toString()]);
      await first.flushed();
      expect(await second.has(node.cid)).toBe(true);
      expect(await collect(second.get(node.cid))).toEqual(node.bytes);
      expect(second.pins()).toEqual([node.cid.toString()]);
      await second.unpin(node.cid.toString());
      expect(second.pins()).toEqual([]);
      await second.flushed();
      expect(first.pins()).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('writes an upload’s leaf, wrapper, pins and tree in one transaction', async () => {
    // No idle commits: every transaction counted is one a publication asked for.
    const { store, drive } = await openDriveAt(dir.path, 1024 ** 3, undefined, { idleCommitMs: 60_000 });
    const user = { email: 'ann@example.org', hex: 'a'.repeat(64), npub: '', g1pub: null, gps: null };
    try {
      const upload = (name: string) =>
        drive.addStream(user, name, pseudoRandom(64 * 1024, name), { kind: 'cli' });
      await upload('first.jpg');
      const before = store.commits;
      await upload('second.jpg');
      const third = await upload('third.pdf');
      // Each publication wrote its blocks and pins, and the previous root's unpin, in one transaction.
      expect(store.commits - before).toBe(2);
      // Committed and flushed before the upload answered: another process sees the new tree and its file.
      const reopened = await EmbeddedStore.open(join(dir.path, 'ipfs'));
      try {
        expect(await reopened.pins()).toContain(third.rootCid);
        expect(
          (await collect(reopened.cat(`${third.rootCid}/${third.filePath.replace('APP/uDRIVE/', '')}`)))
            .length,
        ).toBe(64 * 1024);
      } finally {
        await reopened.close();
      }
    } finally {
      await drive.drain();
      await store.close();
    }
  });

  it('keeps blocks and pins across a reopen', async () => {
    const root = join(dir.path, 'store');
    const node = await block('durable');
    const storage = await BlockStorage.open(root);
    await storage.put(node.cid, node.bytes);
    await storage.pin(node.cid.toString());
    await storage.flushed();
    await storage.close();
    const reopened = await BlockStorage.open(root);
    try {
      expect(await reopened.has(node.cid)).toBe(true);
      expect(reopened.pins()).toEqual([node.cid.toString()]);
    } finally {
      await reopened.close();
    }
  });

  it('reads and unpins what earlier versions wrote: a block per file, a pin per file', async () => {
    const root = join(dir.path, 'store');
    const old = new FsBlockstore(join(root, 'blocks'));
    await old.open();
    const content = await block('hello world\n');
    await old.put(content.cid, content.bytes);
    await mkdir(join(root, 'pins'), { recursive: true });
    await writeFile(join(root, 'pins', content.cid.toString()), '2026-01-01T00:00:00.000Z\n');
    const store = await EmbeddedStore.open(root);
    try {
      expect(await store.pins()).toEqual([content.cid.toString()]);
      const node = await block('new');
      expect(await store.putBlock(node.bytes).catch((error: Error) => error.message)).toMatch(/dag-pb/);
      await store.unpin(content.cid.toString());
      expect(await store.pins()).toEqual([]);
      expect(await readdir(join(root, 'pins'))).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
