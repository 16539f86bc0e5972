import * as dagPb from '@ipld/dag-pb';
import { Node, UnixFS } from 'ipfs-unixfs';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { storeFolder } from '../../../src/drive/root.js';
import {
  encodeDirectory,
  SHARDING_THRESHOLD_BYTES,
  type DirectoryLink,
} from '../../../src/drive/store/dag.js';
import { encodeShardedDirectory } from '../../../src/drive/store/hamt.js';
import { blockStore } from './block-store.js';

const pad = (i: number, width: number) => String(i).padStart(width, '0');
/** 15 bytes of name + 34 of CIDv0 = 49 per link: 5,349 links are 262,101 bytes, 5,350 are 262,150. */
const photo = (i: number) => `photo-${pad(i, 5)}.jpg`;
const photos = (n: number) => Array.from({ length: n }, (_, i) => photo(i + 1));

/**
 * What `ipfs add -r dir` gives a folder of small files with these names, computed by ipfs-unixfs-importer's
 * own tree builder (as test/drive/drive-fixture.ts does), plus the links of its files for the drive's code.
 */
async function addRecursive(names: readonly string[], threshold = SHARDING_THRESHOLD_BYTES) {
  // The i-th file holds `${i}\n`, as `echo $i` writes it in Kubo's tests.
  const candidates: ImportCandidate[] = names.map((name, i) => ({
    path: `dir/${name}`,
    content: Buffer.from(`${i + 1}\n`),
  }));
  const sink = { put: async (cid: CID) => cid };
  const links: DirectoryLink[] = [];
  let dir: { cid: string; dagSize: number } | undefined;
  const options = { profile: 'unixfs-v0-2015', shardSplitThresholdBytes: threshold } as const;
  for await (const entry of importer(candidates, sink, options)) {
    const value = { cid: entry.cid.toString(), dagSize: Number(entry.size) };
    if (entry.path === 'dir') dir = value;
    else links.push({ name: entry.path!.slice('dir/'.length), ...value });
  }
  if (!dir) throw new Error('the importer gave no directory');
  return { dir, links };
}

/** The folder as the drive publishes it, its nodes kept, and the UnixFS type of its root node. */
async function publish(links: readonly DirectoryLink[]) {
  const store = blockStore();
  const folder = await storeFolder(store, links);
  const type = UnixFS.unmarshal(dagPb.decode(store.blocks.get(folder.cid)!).Data!).type;
  return { ...folder, type, store };
}

describe('HAMT-sharded folders', () => {
  it('keeps a plain folder just below the threshold, with the CID it had before', async () => {
    const { dir, links } = await addRecursive(photos(5349));
    const folder = await publish(links);
    expect(folder).toMatchObject({ ...dir, type: 'directory' });
    expect((await encodeDirectory(links)).cid).toBe(dir.cid);
  });

  it('shards a folder just above the threshold exactly as `ipfs add -r`', async () => {
    const { dir, links } = await addRecursive(photos(5350));
    const folder = await publish(links);
    expect(folder).toMatchObject({ ...dir, type: 'hamt-sharded-directory' });
    // 5,350 names in 256 slots: the root shard and sub-shards for the slots that hold several names.
    expect(folder.store.blocks.size).toBeGreaterThan(100);
    // The nodes as Kubo writes them: fanout 256, murmur3-x64-64, two-digit upper-case hex prefixes.
    const root = dagPb.decode(folder.store.blocks.get(folder.cid)!);
    const data = Node.decode(folder.store.blocks.get(folder.cid)!).data!;
    expect([data.type, data.fanOut, data.hashType, data.data?.length]).toEqual([
      'HAMT_SHARD',
      256n,
      0x22n,
      32,
    ]);
    expect(root.Links.every((link) => /^[0-9A-F]{2}/.test(link.Name!))).toBe(true);
    expect(root.Links.some((link) => link.Name!.length === 2)).toBe(true);
  });

  it('keeps a folder of exactly 256 KiB of names and CIDs plain, as the importer does', async () => {
    // 5,349 × 49 bytes + "cover.jpg" (9 + 34) = 262,144.
    const names = [...photos(5349), 'cover.jpg'];
    const { dir, links } = await addRecursive(names);
    expect(await publish(links)).toMatchObject({ ...dir, type: 'directory' });
    // One byte more shards it; older Kubo releases (go-unixfs, `>=`) already sharded this one.
    const { dir: kuboGeDir } = await addRecursive(names, SHARDING_THRESHOLD_BYTES - 1);
    expect(kuboGeDir.cid).not.toBe(dir.cid);
    const more = await addRecursive([...photos(5349), 'cover1.jpg']);
    expect(await publish(more.links)).toMatchObject({ ...more.dir, type: 'hamt-sharded-directory' });
  });

  it('matches `ipfs add -r` for 12,000 entries with non-ASCII names, whatever their order', async () => {
    const names = photos(12_000).map((name, i) => (i % 500 === 0 ? `été ${name}` : name));
    names.push('日本の写真.jpg', '🙂.png', 'Ünïcödé.jpeg');
    const { dir, links } = await addRecursive(names);
    const folder = await publish(links);
    expect(folder).toMatchObject({ ...dir, type: 'hamt-sharded-directory' });
    const shuffled = [...links].sort((a, b) => (a.cid < b.cid ? -1 : 1));
    const again = await encodeShardedDirectory(shuffled, async (bytes) => blockStore().putBlock(bytes));
    expect(again).toEqual(dir);
  });

  it('gives the CIDs Kubo gives in its own sharding tests (kubo test/sharness/t0260-sharding.sh)', async () => {
    // `for i in $(seq 2000); do echo $i > testdata/file$i; done`, added with sharding forced on and off.
    const testdata = await addRecursive(Array.from({ length: 2000 }, (_, i) => `file${i + 1}`));
    const put = async (bytes: Uint8Array) => blockStore().putBlock(bytes);
    const sharded = await encodeShardedDirectory(testdata.links, put);
    expect(sharded.cid).toBe('QmSCJD1KYLhVVHqBK3YyXuoEqHt7vggyJhzoFYbT8v1XYL');
    expect((await encodeDirectory(testdata.links)).cid).toBe(
      'QmavrTrQG4VhoJmantURAYuw3bowq3E2WcvP36NRQDAC1N',
    );
    // `big_dir`: 5,960 files `file000001`… (10 + 34 bytes a link), sharded by the default 256 KiB threshold;
    // without its first 5 files (262,020 bytes) it is a plain directory again.
    const bigDir = await addRecursive(Array.from({ length: 5960 }, (_, i) => `file${pad(i + 1, 6)}`));
    expect((await publish(bigDir.links)).cid).toBe('QmWfjnRWRvdvYezQWnfbvrvY7JjrpevsE9cato1x76UqGr');
    const first5 = new Set(Array.from({ length: 5 }, (_, i) => `file${pad(i + 1, 6)}`));
    const minus5 = bigDir.links.filter((link) => !first5.has(link.name));
    expect((await publish(minus5)).cid).toBe('QmbVxi5zDdzytrjdufUejM92JsWj8wGVmukk6tiPce3p1m');
  });

  it('links each node by the CID the store returned, after storing its sub-shards', async () => {
    const { links } = await addRecursive(photos(600));
    const order: string[] = [];
    const store = blockStore();
    const sharded = await encodeShardedDirectory(links, async (bytes) => {
      const cid = await store.putBlock(bytes);
      order.push(cid);
      return cid;
    });
    expect(order.at(-1)).toBe(sharded.cid);
    expect(new Set(order).size).toBe(order.length);
    const root = dagPb.decode(store.blocks.get(sharded.cid)!);
    const subShards = root.Links.filter((link) => link.Name!.length === 2);
    expect(subShards.length).toBeGreaterThan(0);
    for (const link of subShards) expect(order.indexOf(link.Hash.toString())).toBeLessThan(order.length - 1);
  });
});
