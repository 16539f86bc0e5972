import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlockBatch } from '../../../src/drive/db/block-batch.js';
import { encodeDirectory } from '../../../src/drive/store/dag.js';
import type { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { InvalidInput } from '../../../src/errors.js';
import { tempDir } from '../../helpers/temp.js';
import { collect, ipfsCidOf, once_, pseudoRandom, writeStream } from '../helpers.js';
import { openEmbedded, type OpenedStore } from './open-store.js';

const KIB = 1024;

describe('embedded content store', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let opened: OpenedStore;
  let store: EmbeddedStore;

  beforeAll(async () => {
    dir = await tempDir('drive-store-');
    opened = await openEmbedded(join(dir.path, 'ipfs-store'));
    store = opened.store;
  });
  afterAll(async () => {
    await opened.close();
    await dir.cleanup();
  });

  async function addFileAndCrossCheck(name: string, content: () => AsyncIterable<Uint8Array>) {
    const file = join(dir.path, name);
    await writeStream(file, content());
    const added = await store.add(createReadStream(file));
    expect(added.cid).toBe(await ipfsCidOf(file));
    return added;
  }

  it('produces Kubo’s CIDv0 for the empty file and `hello world\\n`', async () => {
    const empty = await addFileAndCrossCheck('empty', () => once_(new Uint8Array()));
    expect(empty).toEqual({ cid: 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH', size: 0, dagSize: 6 });
    const hello = await addFileAndCrossCheck('hello', () => once_(Buffer.from('hello world\n')));
    expect(hello).toEqual({ cid: 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o', size: 12, dagSize: 20 });
  });

  it('matches Kubo at exactly one chunk (256 KiB) and one byte more', async () => {
    const zeros = await addFileAndCrossCheck('zeros', () => once_(new Uint8Array(256 * KIB)));
    expect(zeros.cid).toBe('QmRk1rduJvo5DfEYAaLobS2za9tDszk35hzaNSDCJ74DA7');
    const more = await addFileAndCrossCheck('more', () => pseudoRandom(256 * KIB + 1, 'more'));
    expect(more.size).toBe(256 * KIB + 1);
  });

  it('adds a one-chunk file held in memory as Kubo would, and serves it back', async () => {
    for (const size of [1, 12, 64 * KIB, 256 * KIB]) {
      const file = join(dir.path, `in-memory-${size}`);
      const bytes = await collect(pseudoRandom(size, `in-memory-${size}`));
      await writeStream(file, once_(bytes));
      const streamed = await store.add(createReadStream(file), { pin: false });
      expect(await store.addFile(file, { bytes, pin: false })).toEqual(streamed);
      expect(streamed.cid).toBe(await ipfsCidOf(file));
      expect((await collect(store.cat(streamed.cid))).equals(bytes)).toBe(true);
    }
  });

  it('matches Kubo for multi-chunk files, including a second level of the balanced tree', async () => {
    // 174 links of 256 KiB fill one node (~43.5 MiB): 46 MiB forces the balanced layout's second level.
    const big = await addFileAndCrossCheck('big', () => pseudoRandom(46 * KIB * KIB, 'big'));
    expect(big.size).toBe(46 * KIB * KIB);
    await addFileAndCrossCheck('medium', () => pseudoRandom(3 * KIB * KIB + 17, 'medium'));
    // Unaligned reads from the middle of the tree come back byte for byte.
    const slice = await collect(store.cat(big.cid, { offset: 45 * KIB * KIB - 5, length: 300_000 }));
    const expected = (await collect(pseudoRandom(45 * KIB * KIB + 300_000, 'big'))).subarray(
      45 * KIB * KIB - 5,
    );
    expect(slice.equals(expected.subarray(0, 300_000))).toBe(true);
    expect(await store.stat(big.cid)).toEqual({ type: 'file', ...big });
  });

  it('builds directories exactly as `ipfs add -r` and resolves names under them', async () => {
    const empty = await encodeDirectory([]);
    expect(empty.cid).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
    const hello = await store.add(once_(Buffer.from('hello world\n')));
    const dirNode = await encodeDirectory([
      { name: 'été.txt', cid: hello.cid, dagSize: hello.dagSize },
      { name: 'empty', cid: empty.cid, dagSize: empty.dagSize },
    ]);
    expect(await store.putBlock(empty.bytes)).toBe(empty.cid);
    // The encoder's CID is taken as it is: the node is found under it.
    expect(await store.putBlock(dirNode.bytes, dirNode.cid)).toBe(dirNode.cid);
    expect(await store.ls(dirNode.cid)).toEqual([
      { name: 'empty', cid: empty.cid, type: 'directory', size: 0 },
      { name: 'été.txt', cid: hello.cid, type: 'file', size: 12 },
    ]);
    expect((await collect(store.cat(`${dirNode.cid}/été.txt`))).toString()).toBe('hello world\n');
    expect(await store.stat(dirNode.cid)).toMatchObject({ type: 'directory', dagSize: dirNode.dagSize });
  });

  it('files a node under the CID its encoder computed without hashing it again, and hashes one without', async () => {
    const node = await encodeDirectory([
      { name: 'once.txt', cid: (await encodeDirectory([])).cid, dagSize: 4 },
    ]);
    const digest = vi.spyOn(sha256, 'digest');
    try {
      expect(await store.putBlock(node.bytes, node.cid)).toBe(node.cid);
      expect(digest).not.toHaveBeenCalled();
      expect(await store.putBlock(node.bytes)).toBe(node.cid);
      expect(digest).toHaveBeenCalledTimes(1);
    } finally {
      digest.mockRestore();
    }
    expect(await store.stat(node.cid)).toMatchObject({ type: 'directory', dagSize: node.dagSize });
  });

  it('reports missing content, bad paths and directories with typed errors', async () => {
    const missing = 'QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51';
    await expect(store.stat(missing)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    await expect(store.stat('not-a-cid')).rejects.toMatchObject({ code: 'INVALID_IPFS_PATH' });
    const dirNode = await encodeDirectory([]);
    await store.putBlock(dirNode.bytes);
    await expect(collect(store.cat(dirNode.cid))).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(store.stat(`${dirNode.cid}/nothing`)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    await expect(store.putBlock(Buffer.from('not dag-pb'))).rejects.toBeInstanceOf(InvalidInput);
  });

  it('reads blocks back, and tells whether it holds every block of a DAG', async () => {
    const big = await store.add(pseudoRandom(600 * KIB, 'blocks'));
    const root = await store.getBlock(big.cid);
    const links = dagPb.decode(root).Links;
    expect(links).toHaveLength(3);
    expect(await store.stat(links[0]!.Hash.toString())).toMatchObject({ type: 'file', size: 256 * KIB });
    expect(await store.holds(big.cid)).toBe(true);
    // A folder naming a file the store never received: its node is here, not the whole DAG.
    const absent = 'QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51';
    const partial = await encodeDirectory([
      { name: 'here', cid: big.cid, dagSize: big.dagSize },
      { name: 'gone', cid: absent, dagSize: 10 },
    ]);
    await store.putBlock(partial.bytes, partial.cid);
    expect(Buffer.from(await store.getBlock(partial.cid)).equals(Buffer.from(partial.bytes))).toBe(true);
    expect(await store.holds(partial.cid)).toBe(false);
    expect(await store.holds(absent)).toBe(false);
    await expect(store.getBlock(absent)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
  });

  it('keeps what is added into a batch out of the store until the batch is written', async () => {
    const batch = new BlockBatch();
    const added = await store.add(pseudoRandom(300 * KIB, 'batched'), { into: batch, pin: false });
    const folder = await encodeDirectory([{ name: 'batched.bin', cid: added.cid, dagSize: added.dagSize }]);
    expect(await store.putBlock(folder.bytes, folder.cid, batch)).toBe(folder.cid);
    // Two leaves, their root, the folder: in memory only.
    expect(batch.blocks.size).toBe(4);
    const gen = opened.db.meta.get('gen');
    for (const cid of [added.cid, folder.cid]) {
      expect(await store.holds(cid)).toBe(false);
      await expect(store.stat(cid)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    }
    expect(opened.db.meta.get('gen')).toBe(gen);
    await store.blocks.write(batch);
    expect(await store.holds(folder.cid)).toBe(true);
    const read = await collect(store.cat(`${folder.cid}/batched.bin`));
    expect(read.equals(await collect(pseudoRandom(300 * KIB, 'batched')))).toBe(true);
  });

  it('records pins and content durably once add resolves, seen by another opening, and unpins', async () => {
    const added = await store.add(once_(Buffer.from('pinned')));
    const unpinned = await store.add(once_(Buffer.from('not pinned')), { pin: false });
    expect(await store.pins()).toContain(added.cid);
    expect(await store.pins()).not.toContain(unpinned.cid);
    const reopened = await openEmbedded(join(dir.path, 'ipfs-store'));
    try {
      expect(await reopened.store.pins()).toContain(added.cid);
      expect((await collect(reopened.store.cat(unpinned.cid))).toString()).toBe('not pinned');
      await reopened.store.unpin(added.cid);
    } finally {
      await reopened.close();
    }
    expect(await store.pins()).not.toContain(added.cid);
    await expect(store.pin('QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51')).rejects.toMatchObject({
      code: 'CONTENT_NOT_FOUND',
    });
    expect(await store.health()).toEqual({ ok: true, detail: 'embedded' });
  });
});
