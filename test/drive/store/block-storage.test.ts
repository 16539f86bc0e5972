import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockBatch } from '../../../src/drive/db/block-batch.js';
import { currentGen, openDriveDb } from '../../../src/drive/db/drive-db.js';
import { BlockStorage } from '../../../src/drive/store/block-storage.js';
import { leafBlock } from '../../../src/drive/store/file-leaves.js';
import { tempDir } from '../../helpers/temp.js';
import { openDriveAt } from '../drive-fixture.js';
import { collect, pseudoRandom } from '../helpers.js';
import { openEmbedded } from './open-store.js';

async function block(text: string) {
  const bytes = dagPb.encode({ Data: Buffer.from(text), Links: [] });
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
  let root: string;
  beforeEach(async () => {
    dir = await tempDir('block-storage-');
    root = join(dir.path, 'ipfs-store');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('keeps every block of a streamed file, small or large, in LMDB: no block file, no held file', async () => {
    const { db, store, close } = await openEmbedded(root);
    try {
      const photo = await store.add(pseudoRandom(200 * 1024, 'photo'));
      expect(db.blocks.getCount()).toBe(1);
      const film = await store.add(pseudoRandom(3 * 1024 * 1024, 'film'));
      // 12 leaves of 256 KiB and their root; a stream has no file to hold by link.
      expect(db.blocks.getCount()).toBe(1 + 12 + 1);
      expect(db.fileLeaves.getCount()).toBe(0);
      expect(await blockFiles(root)).toBe(0);
      expect(await readdir(join(root, 'files')).catch(() => [])).toEqual([]);
      expect(
        (await collect(store.cat(photo.cid))).equals(await collect(pseudoRandom(200 * 1024, 'photo'))),
      ).toBe(true);
      const read = await collect(store.cat(film.cid));
      expect(read.equals(await collect(pseudoRandom(3 * 1024 * 1024, 'film')))).toBe(true);
    } finally {
      await close();
    }
  });

  it('writes a batch in one transaction, seen by every process once written, and shares pins', async () => {
    const [a, b] = [await openDriveDb(root), await openDriveDb(root)];
    const [first, second] = [await BlockStorage.open(root, a), await BlockStorage.open(root, b)];
    try {
      const [one, two] = [await block('a directory node'), await block('another node')];
      const batch = new BlockBatch();
      batch.put(one.cid.toString(), one.bytes);
      batch.put(two.cid.toString(), two.bytes);
      // Blocks of a batch are nowhere in the store until it is written, not even for its own process.
      expect(await first.has(one.cid)).toBe(false);
      expect(await first.bytes(one.cid)).toBeUndefined();
      const gen = currentGen(a);
      await first.write(new BlockBatch());
      expect(currentGen(a)).toBe(gen); // nothing to write: no transaction
      await first.write(batch);
      // One change number for the whole batch. New blocks carry none: they are in no earlier collection's
      // snapshot, so no collection running now can take them (src/drive/gc/mark.ts).
      expect(currentGen(b)).toBe(gen + 1);
      expect([b.blockGen.get(one.cid.toString()), b.blockGen.get(two.cid.toString())]).toEqual([
        undefined,
        undefined,
      ]);
      expect(await second.has(two.cid)).toBe(true);
      expect(await collect(second.get(one.cid))).toEqual(Buffer.from(one.bytes));
      expect(await second.holds(one.cid)).toBe(true);
      // Reused by a later change: the bytes stay, and the block carries that change's number.
      const again = new BlockBatch();
      again.put(one.cid.toString(), one.bytes);
      await second.write(again);
      expect(a.blockGen.get(one.cid.toString())).toBe(gen + 2);
      expect(a.blocks.getCount()).toBe(2);

      await first.pin(one.cid.toString());
      await first.pin(one.cid.toString());
      expect(second.pins()).toEqual([one.cid.toString()]);
      await second.unpin(one.cid.toString());
      expect(first.pins()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes an upload’s blocks with its change, in one transaction, committed before the upload answers', async () => {
    const services = await openDriveAt(dir.path, { quotaBytes: 1024 ** 3 });
    const user = { email: 'ann@example.org', hex: 'a'.repeat(64), npub: '', g1pub: null, gps: null };
    try {
      const upload = (name: string) =>
        services.drive.addStream(user, name, pseudoRandom(64 * 1024, name), { kind: 'cli' });
      await upload('first.jpg');
      const before = currentGen(services.db);
      await upload('second.jpg');
      // The third file's CID, known beforehand (a batch nobody writes): watched in every transaction.
      const { db } = services;
      const expected = await services.store.add(pseudoRandom(64 * 1024, 'third.pdf'), {
        into: new BlockBatch(),
        pin: false,
      });
      const stored = () => db.blocks.doesExist(expected.cid) || db.fileLeaves.doesExist(expected.cid);
      const seen: Array<[boolean, boolean]> = [];
      const transaction = db.root.childTransaction.bind(db.root);
      db.root.childTransaction = ((callback: () => unknown) =>
        transaction(() => {
          const was = stored();
          const result = callback();
          seen.push([was, stored()]);
          return result;
        })) as typeof db.root.childTransaction;
      const third = await upload('third.pdf');
      db.root.childTransaction = transaction;
      expect(third.entry.cid).toBe(expected.cid);
      // Not in the store while it was imported and its change planned: written by the change's transaction.
      expect(seen).toEqual([[false, true]]);
      // Each upload: its leaf, wrapper, folders, manifest pages, entries and root in one transaction.
      expect(currentGen(db) - before).toBe(2);
      // New blocks carry no change number; a reused one (the explorer, the same in every root) the latest.
      const wrapper = third.entry.ipfs_link.split('/')[0]!;
      for (const cid of [third.entry.cid, wrapper, third.rootCid])
        expect(db.blockGen.get(cid)).toBeUndefined();
      const explorer = (await services.store.ls(third.rootCid)).find((e) => e.name === '_index.html')!;
      expect(db.blockGen.get(explorer.cid)).toBe(currentGen(db));
      // Committed and flushed before the upload answered: another process reads the new tree and its file.
      const other = await openEmbedded(join(dir.path, 'ipfs-store'));
      try {
        expect(await other.store.holds(third.rootCid)).toBe(true);
        const inRoot = third.filePath.replace('APP/uDRIVE/', '');
        expect((await collect(other.store.cat(`${third.rootCid}/${inRoot}`))).length).toBe(64 * 1024);
      } finally {
        await other.close();
      }
    } finally {
      await services.close();
    }
  });

  it('keeps blocks and pins across a reopen', async () => {
    const node = await block('durable');
    const db = await openDriveDb(root);
    const storage = await BlockStorage.open(root, db);
    const batch = new BlockBatch();
    batch.put(node.cid.toString(), node.bytes);
    await storage.write(batch);
    await storage.pin(node.cid.toString());
    await db.close();
    const reopened = await openDriveDb(root);
    try {
      const again = await BlockStorage.open(root, reopened);
      expect(await again.has(node.cid)).toBe(true);
      expect(again.pins()).toEqual([node.cid.toString()]);
    } finally {
      await reopened.close();
    }
  });

  it('reads blocks earlier versions wrote in blocks/, and drops their pin files', async () => {
    const old = new FsBlockstore(join(root, 'blocks'));
    await old.open();
    const bytes = leafBlock(Buffer.from('hello world\n'));
    const cid = CID.createV0(await sha256.digest(bytes));
    expect(cid.toString()).toBe('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o');
    await old.put(cid, bytes);
    await mkdir(join(root, 'pins'), { recursive: true });
    await writeFile(join(root, 'pins', cid.toString()), '2026-01-01T00:00:00.000Z\n');
    const { db, store, close } = await openEmbedded(root);
    try {
      expect((await collect(store.cat(cid.toString()))).toString()).toBe('hello world\n');
      expect(Buffer.from(await store.getBlock(cid.toString())).equals(bytes)).toBe(true);
      expect(await store.holds(cid.toString())).toBe(true);
      // Read where it is, not copied into LMDB.
      expect(db.blocks.getCount()).toBe(0);
      // Pin files of those versions are gone: the drives that pinned them keep their content now.
      expect(await stat(join(root, 'pins')).catch(() => null)).toBeNull();
      expect(await store.pins()).toEqual([]);
      await store.pin(cid.toString());
      expect(await store.pins()).toEqual([cid.toString()]);
      expect(await store.putBlock(Buffer.from('new')).catch((error: Error) => error.message)).toMatch(
        /dag-pb/,
      );
    } finally {
      await close();
    }
  });
});
