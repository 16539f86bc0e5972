import { createReadStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SMALL_FILE_BYTES } from '../../../src/drive/store/block-storage.js';
import { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { tempDir } from '../../helpers/temp.js';
import { collect, ipfsCidOf, pseudoRandom, writeStream } from '../helpers.js';

const SIZE = 3 * SMALL_FILE_BYTES + 12_345;

const listing = (path: string) => readdir(path).catch(() => [] as string[]);

describe('large files held, not copied, by the embedded store', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let storeDir: string;
  let file: string;
  beforeEach(async () => {
    dir = await tempDir('held-files-');
    storeDir = join(dir.path, 'store');
    file = join(dir.path, 'film.mp4');
    await writeStream(file, pseudoRandom(SIZE, 'film'));
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('gives Kubo’s CID, writes no data block, and links the file instead', async () => {
    const store = await EmbeddedStore.open(storeDir);
    try {
      const added = await store.addFile(file);
      expect(added.cid).toBe(await ipfsCidOf(file));
      expect(added.size).toBe(SIZE);
      expect(await listing(join(storeDir, 'blocks'))).toEqual([]);
      const held = await listing(join(storeDir, 'files'));
      expect(held).toHaveLength(1);
      expect((await stat(file)).nlink).toBe(2);
      expect((await collect(store.cat(added.cid))).equals(await collect(createReadStream(file)))).toBe(true);
      const slice = await collect(store.cat(added.cid, { offset: SMALL_FILE_BYTES - 5, length: 300_000 }));
      const whole = await collect(createReadStream(file));
      expect(slice.equals(whole.subarray(SMALL_FILE_BYTES - 5, SMALL_FILE_BYTES - 5 + 300_000))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('serves the file after its original name is removed and after a reopen; holds the same bytes once', async () => {
    const first = await EmbeddedStore.open(storeDir);
    const added = await first.addFile(file);
    const copy = join(dir.path, 'copy.mp4');
    await writeStream(copy, pseudoRandom(SIZE, 'film'));
    expect((await first.addFile(copy)).cid).toBe(added.cid);
    expect(await listing(join(storeDir, 'files'))).toHaveLength(1);
    await first.flush();
    await first.close();
    const expected = await collect(createReadStream(file));
    await rm(file);
    await rm(copy);
    const reopened = await EmbeddedStore.open(storeDir);
    try {
      expect((await collect(reopened.cat(added.cid))).equals(expected)).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it('refuses to serve bytes changed in place, and holds the file again when its link is gone', async () => {
    const store = await EmbeddedStore.open(storeDir);
    try {
      const added = await store.addFile(file);
      const handle = await open(file, 'r+');
      await handle.write(Buffer.from('tampered'), 0, 8, SIZE - 100);
      await handle.close();
      await expect(collect(store.cat(added.cid))).rejects.toThrow(/changed on disk/);
      // The held link is lost (a crash between recording the leaves and linking): a new import relinks.
      const [held] = await listing(join(storeDir, 'files'));
      await rm(join(storeDir, 'files', held!));
      const clean = join(dir.path, 'clean.mp4');
      await writeStream(clean, pseudoRandom(SIZE, 'film'));
      expect((await store.addFile(clean)).cid).toBe(added.cid);
      expect((await collect(store.cat(added.cid))).equals(await collect(createReadStream(clean)))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('imports a file of SMALL_FILE_BYTES or less as before, into LMDB', async () => {
    const small = join(dir.path, 'photo.jpg');
    await writeStream(small, pseudoRandom(SMALL_FILE_BYTES, 'photo'));
    const store = await EmbeddedStore.open(storeDir);
    try {
      expect((await store.addFile(small)).cid).toBe(await ipfsCidOf(small));
      expect(await listing(join(storeDir, 'files'))).toEqual([]);
      expect((await stat(small)).nlink).toBe(1);
    } finally {
      await store.close();
    }
  });
});
