import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { MemoryBlockstore } from 'blockstore-core';
import { UnixFS } from 'ipfs-unixfs';
import { importFile } from 'ipfs-unixfs-importer';
import { describe, expect, it } from 'vitest';
import { buildFile, rewriteTail, type FileLeaf } from '../../../src/drive/store/unixfs-append.js';
import { collect, ipfsCidOf, pseudoRandom } from '../helpers.js';
import { tempDir } from '../../helpers/temp.js';
import { blockStore } from './block-store.js';

const CHUNK = 262_144;

/** What `ipfs add` gives (the embedded store's options): the reference every layout is checked against. */
async function imported(bytes: Uint8Array) {
  const result = await importFile({ content: bytes }, new MemoryBlockstore(), {
    profile: 'unixfs-v0-2015',
    reduceSingleLeafToSelf: true,
  });
  return { cid: result.cid.toString(), dagSize: Number(result.size) };
}

function io() {
  const store = blockStore();
  const counts = { put: 0, read: 0 };
  return {
    store,
    counts,
    put: async (block: Uint8Array) => {
      counts.put += 1;
      return store.putBlock(block);
    },
    readLeaf: async (leaf: FileLeaf) => {
      counts.read += 1;
      const node = dagPb.decode(store.blocks.get(leaf.cid)!);
      return UnixFS.unmarshal(node.Data!).data!;
    },
  };
}

/** Deterministic bytes of any length (the seed names the case). */
async function bytesOf(size: number, seed: string): Promise<Uint8Array> {
  return collect(pseudoRandom(size, seed));
}

describe('UnixFS files rebuilt from their end', () => {
  it('lays a whole file out as `ipfs add` does, at and around chunk boundaries', async () => {
    for (const size of [1, 100, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17, 2_000_000]) {
      const bytes = await bytesOf(size, `whole-${size}`);
      const layout = await buildFile(bytes, io());
      expect({ cid: layout?.cid, dagSize: layout?.dagSize }).toEqual(await imported(bytes));
    }
    expect(await buildFile(new Uint8Array(0), io())).toBeNull();
    expect(await buildFile(new Uint8Array(174 * CHUNK + 1), io())).toBeNull();
  });

  it('agrees with Debian’s ipfs_cid', async () => {
    const dir = await tempDir('unixfs-append-');
    try {
      for (const size of [5_000, 3 * CHUNK + 17]) {
        const bytes = await bytesOf(size, `debian-${size}`);
        await writeFile(join(dir.path, 'file'), bytes);
        expect((await buildFile(bytes, io()))?.cid).toBe(await ipfsCidOf(join(dir.path, 'file')));
      }
    } finally {
      await dir.cleanup();
    }
  });

  it('gives the CID of a whole import after every rewrite of its end, reading one leaf at most', async () => {
    const leaves = io();
    let bytes = await bytesOf(700_000, 'start');
    let layout = (await buildFile(bytes, leaves))!;
    let random = 7;
    const next = (n: number) => (random = (random * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    for (let step = 0; step < 50; step++) {
      // Mostly near the end (the trailer replaced), sometimes much further back, sometimes shrinking.
      const back = step % 7 === 0 ? next(bytes.length + 1) : next(Math.min(bytes.length, 300) + 1);
      const keep = bytes.length - back;
      const suffix = await bytesOf(next(70 * 1024), `step-${step}`);
      leaves.counts.put = 0;
      leaves.counts.read = 0;
      layout = (await rewriteTail(layout, keep, suffix, leaves))!;
      bytes = Buffer.concat([bytes.subarray(0, keep), suffix]);
      expect({ cid: layout.cid, dagSize: layout.dagSize }).toEqual(await imported(bytes));
      expect(leaves.counts.read).toBeLessThanOrEqual(1);
      const rebuilt = Math.ceil(bytes.length / CHUNK) - Math.floor(keep / CHUNK);
      expect(leaves.counts.put).toBeLessThanOrEqual(rebuilt + 1);
    }
  });

  it('keeps an exact chunk boundary without reading anything', async () => {
    const leaves = io();
    const bytes = await bytesOf(2 * CHUNK, 'boundary');
    const layout = (await buildFile(bytes, leaves))!;
    leaves.counts.read = 0;
    const suffix = await bytesOf(10, 'more');
    const longer = (await rewriteTail(layout, 2 * CHUNK, suffix, leaves))!;
    expect(leaves.counts.read).toBe(0);
    expect(longer.cid).toBe((await imported(Buffer.concat([bytes, suffix]))).cid);
    expect(await rewriteTail(layout, 2 * CHUNK, new Uint8Array(173 * CHUNK), leaves)).toBeNull();
  });
});
