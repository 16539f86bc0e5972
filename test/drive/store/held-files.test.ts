import { createReadStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlockBatch } from '../../../src/drive/db/block-batch.js';
import { ChangedOnDiskError, holderOfHeld } from '../../../src/drive/store/held-files.js';
import { processInstance } from '../../../src/process/identity.js';
import { tempDir } from '../../helpers/temp.js';
import { collect, ipfsCidOf, once_, pseudoRandom, writeStream } from '../helpers.js';
import { openEmbedded } from './open-store.js';

/** 1 MiB, four leaves: earlier versions held only larger files by link (now every file on disk is). */
const MIB = 1024 * 1024;
const SIZE = 3 * MIB + 12_345;
/** 256 KiB leaves: 12 full ones and a last one of 12,345 bytes. */
const LEAVES = 13;

const listing = (path: string) => readdir(path).catch(() => [] as string[]);

describe('files held, not copied, by the embedded store', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let storeDir: string;
  let file: string;
  beforeEach(async () => {
    dir = await tempDir('held-files-');
    storeDir = join(dir.path, 'ipfs-store');
    file = join(dir.path, 'film.mp4');
    await writeStream(file, pseudoRandom(SIZE, 'film'));
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('gives Kubo’s CID, stores only the inner node, and links the file for its leaves', async () => {
    const { db, store, close } = await openEmbedded(storeDir);
    try {
      const added = await store.addFile(file);
      expect(added.cid).toBe(await ipfsCidOf(file));
      expect(added.size).toBe(SIZE);
      // The root (13 links) is a block; the leaves are places in the linked file.
      expect(db.blocks.getCount()).toBe(1);
      expect(db.fileLeaves.getCount()).toBe(LEAVES);
      expect(await listing(join(storeDir, 'blocks'))).toEqual([]);
      const held = await listing(join(storeDir, 'files'));
      expect(held).toHaveLength(1);
      expect((await stat(file)).nlink).toBe(2);
      expect((await stat(join(storeDir, 'files', held[0]!))).ino).toBe((await stat(file)).ino);
      expect((await collect(store.cat(added.cid))).equals(await collect(createReadStream(file)))).toBe(true);
      const slice = await collect(store.cat(added.cid, { offset: MIB - 5, length: 300_000 }));
      const whole = await collect(createReadStream(file));
      expect(slice.equals(whole.subarray(MIB - 5, MIB - 5 + 300_000))).toBe(true);
      expect(await store.holds(added.cid)).toBe(true);
    } finally {
      await close();
    }
  });

  it('links the file at import but places its leaves only when the change’s batch is written', async () => {
    const { db, store, close } = await openEmbedded(storeDir);
    try {
      const batch = new BlockBatch();
      const added = await store.addFile(file, { into: batch, pin: false });
      expect(added.cid).toBe(await ipfsCidOf(file));
      const [name] = await listing(join(storeDir, 'files'));
      expect([...batch.heldFiles()]).toEqual([name]);
      expect([batch.blocks.size, batch.leaves.size]).toEqual([1, LEAVES]);
      expect([db.blocks.getCount(), db.fileLeaves.getCount()]).toEqual([0, 0]);
      // Its name says which process linked it: a collection leaves it alone while this process runs.
      expect(holderOfHeld(name!)).toBe(processInstance);
      expect(await store.holds(added.cid)).toBe(false);
      await expect(store.getBlock(added.cid)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
      await store.blocks.write(batch);
      expect([db.blocks.getCount(), db.fileLeaves.getCount()]).toEqual([1, LEAVES]);
      expect(await store.holds(added.cid)).toBe(true);
      expect((await collect(store.cat(added.cid))).equals(await collect(createReadStream(file)))).toBe(true);
    } finally {
      await close();
    }
  });

  it('gives up the link an import made when its change will not commit', async () => {
    const { db, store, close } = await openEmbedded(storeDir);
    try {
      const batch = new BlockBatch();
      await store.addFile(file, { into: batch, pin: false });
      expect((await stat(file)).nlink).toBe(2);
      await store.release(batch, false);
      expect(await listing(join(storeDir, 'files'))).toEqual([]);
      expect((await stat(file)).nlink).toBe(1);
      expect([db.fileLeaves.getCount(), db.blocks.getCount()]).toEqual([0, 0]);
    } finally {
      await close();
    }
  });

  it('serves the file after its original name is removed and after a reopen, from the newest link', async () => {
    const first = await openEmbedded(storeDir);
    const added = await first.store.addFile(file);
    const copy = join(dir.path, 'copy.mp4');
    await writeStream(copy, pseudoRandom(SIZE, 'film'));
    expect((await first.store.addFile(copy)).cid).toBe(added.cid);
    // Each import links its own file; the leaves name the newer link, the older one is the collector's.
    const links = await listing(join(storeDir, 'files'));
    expect(links).toHaveLength(2);
    const named = new Set([...first.db.fileLeaves.getRange()].map(({ value }) => value.file));
    expect(named.size).toBe(1);
    expect((await stat(join(storeDir, 'files', [...named][0]!))).ino).toBe((await stat(copy)).ino);
    await first.close();
    const expected = await collect(createReadStream(file));
    await rm(file);
    await rm(copy);
    const reopened = await openEmbedded(storeDir);
    try {
      expect((await collect(reopened.store.cat(added.cid))).equals(expected)).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it('refuses to serve bytes changed in place, and holds the file again when its link is gone', async () => {
    const { store, close } = await openEmbedded(storeDir);
    try {
      const added = await store.addFile(file);
      const handle = await open(file, 'r+');
      await handle.write(Buffer.from('tampered'), 0, 8, SIZE - 100);
      await handle.close();
      await expect(collect(store.cat(added.cid))).rejects.toThrow(/changed on disk/);
      const leaves = [...store.blocks.db.fileLeaves.getRange()];
      const tampered = leaves.find(({ value }) => value.offset + value.length === SIZE)!;
      await expect(store.getBlock(tampered.key)).rejects.toBeInstanceOf(ChangedOnDiskError);
      // The held link is lost (a crash, or the collector took it): a new import links the file again.
      const [held] = await listing(join(storeDir, 'files'));
      await rm(join(storeDir, 'files', held!));
      await expect(collect(store.cat(added.cid))).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
      expect(await store.holds(added.cid)).toBe(false);
      const clean = join(dir.path, 'clean.mp4');
      await writeStream(clean, pseudoRandom(SIZE, 'film'));
      expect((await store.addFile(clean)).cid).toBe(added.cid);
      expect((await collect(store.cat(added.cid))).equals(await collect(createReadStream(clean)))).toBe(true);
    } finally {
      await close();
    }
  });

  it('holds a small file by link too, one given in memory as well; the empty file is a block', async () => {
    const small = join(dir.path, 'photo.jpg');
    await writeStream(small, pseudoRandom(MIB, 'photo'));
    const note = join(dir.path, 'note.txt');
    const text = Buffer.from('a note of one chunk');
    await writeStream(note, once_(text));
    const empty = join(dir.path, 'empty');
    await writeStream(empty, once_(new Uint8Array()));
    const { db, store, close } = await openEmbedded(storeDir);
    try {
      const photo = await store.addFile(small);
      expect(photo.cid).toBe(await ipfsCidOf(small));
      // Four leaves in the file, their root a block.
      expect([db.blocks.getCount(), db.fileLeaves.getCount()]).toEqual([1, 4]);
      expect((await stat(small)).nlink).toBe(2);
      // One chunk the caller still has in memory: its one leaf is the file's root, placed at offset 0.
      const added = await store.addFile(note, { bytes: text });
      expect(added).toEqual({ cid: await ipfsCidOf(note), size: text.length, dagSize: text.length + 8 });
      expect(db.fileLeaves.get(added.cid)).toMatchObject({ offset: 0, length: text.length });
      expect((await stat(note)).nlink).toBe(2);
      expect((await collect(store.cat(added.cid))).equals(text)).toBe(true);
      // Nothing to hold in an empty file: its one leaf is a block.
      expect((await store.addFile(empty)).cid).toBe('QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH');
      expect((await stat(empty)).nlink).toBe(1);
      expect([db.blocks.getCount(), db.fileLeaves.getCount()]).toEqual([2, 5]);
      expect(await listing(join(storeDir, 'files'))).toHaveLength(2);
    } finally {
      await close();
    }
  });
});
