import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../../src/drive/manifest.js';
import { buildDriveRoot, type DriveRootChange } from '../../src/drive/root.js';
import { DEFAULT_LINKS } from './drive-fixture.js';

/** A block store that only counts the nodes put, answers the CID Kubo would, and files small files whole. */
function countingStore() {
  const put: string[] = [];
  const cidOf = async (bytes: Uint8Array) => CID.createV0(await sha256.digest(bytes)).toString();
  return {
    put,
    putBlock: async (bytes: Uint8Array) => {
      const cid = await cidOf(bytes);
      put.push(cid);
      return cid;
    },
    add: async (content: AsyncIterable<Uint8Array>) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of content) chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      return { cid: await cidOf(bytes), size: bytes.length, dagSize: bytes.length };
    },
  };
}

const drive = (files: ManifestEntry[]) => ({ owner_hex_pubkey: 'ab'.repeat(32), files });
const build = (store: ReturnType<typeof countingStore>, files: ManifestEntry[], change?: DriveRootChange) =>
  buildDriveRoot(store, drive(files), { links: DEFAULT_LINKS, change });

async function entry(category: ManifestEntry['category'], name: string): Promise<ManifestEntry> {
  const cid = CID.createV0(await sha256.digest(Buffer.from(`${category}/${name}`))).toString();
  return { category, name, path: `${category}/${name}`, cid, dag_size: 100 + name.length } as ManifestEntry;
}

describe('drive root', () => {
  it('rebuilds only the changed folder and gives the same tree as a full rebuild', async () => {
    const files = [
      await entry('Documents', 'a.txt'),
      await entry('Images', 'b.jpg'),
      await entry('Music', 'c.mp3'),
    ];
    const before = await build(countingStore(), files);
    const added = [...files, await entry('Images', 'd.png')];
    const store = countingStore();
    const change = {
      changed: 'Images' as const,
      previous: { folders: before.folders, folderDagSizes: before.folderDagSizes },
    };
    const incremental = await build(store, added, change);
    expect(incremental).toEqual(await build(countingStore(), added));
    expect(incremental.folders.Documents).toBe(before.folders.Documents);
    // The Images folder and the root: the three other folders are not encoded nor stored again.
    expect(store.put).toEqual([incremental.folders.Images, incremental.rootCid]);
    // Sizes missing from the previous tree (a manifest written before they were recorded): rebuilt.
    const partial = { ...change, previous: { folders: before.folders, folderDagSizes: {} } };
    expect(await build(countingStore(), added, partial)).toEqual(incremental);
  });

  it('shards a folder past Kubo’s threshold instead of refusing it (hamt tests check the CIDs)', async () => {
    // 256 KiB of names and CIDs: 1,000 links of a 230-byte name and a 34-byte CIDv0.
    const files = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        entry('Videos', `${String(i).padStart(4, '0')}${'v'.repeat(226)}`),
      ),
    );
    const sharded = await build(countingStore(), files);
    const plain = await build(countingStore(), files.slice(0, 900));
    expect(sharded.folders.Videos).not.toBe(plain.folders.Videos);
    expect(sharded.folderDagSizes.Videos).toBeGreaterThan(plain.folderDagSizes.Videos);
  });
});
