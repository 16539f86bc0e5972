import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../../src/drive/manifest.js';
import { buildDriveRoot } from '../../src/drive/root.js';

/** A block store that only counts what is put and answers the CID Kubo would. */
function countingStore() {
  const put: string[] = [];
  return {
    put,
    putBlock: async (bytes: Uint8Array) => {
      const cid = CID.createV0(await sha256.digest(bytes)).toString();
      put.push(cid);
      return cid;
    },
  };
}

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
    const before = await buildDriveRoot(countingStore(), files);
    const added = [...files, await entry('Images', 'd.png')];
    const store = countingStore();
    const change = {
      changed: 'Images' as const,
      previous: { folders: before.folders, folderDagSizes: before.folderDagSizes },
    };
    const incremental = await buildDriveRoot(store, added, change);
    expect(incremental).toEqual(await buildDriveRoot(countingStore(), added));
    expect(incremental.folders.Documents).toBe(before.folders.Documents);
    // The Images folder and the root: the three other folders are not encoded nor stored again.
    expect(store.put).toEqual([incremental.folders.Images, incremental.rootCid]);
    // Sizes missing from the previous tree (a manifest written before they were recorded): rebuilt.
    const partial = { ...change, previous: { folders: before.folders, folderDagSizes: {} } };
    expect(await buildDriveRoot(countingStore(), added, partial)).toEqual(incremental);
  });

  it('refuses a folder that Kubo would shard (507 DRIVE_FOLDER_FULL)', async () => {
    // 256 KiB of names and CIDs: 1,000 links of a 230-byte name and a 34-byte CIDv0.
    const files = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        entry('Videos', `${String(i).padStart(4, '0')}${'v'.repeat(226)}`),
      ),
    );
    await expect(buildDriveRoot(countingStore(), files)).rejects.toMatchObject({
      statusCode: 507,
      code: 'DRIVE_FOLDER_FULL',
    });
    await expect(buildDriveRoot(countingStore(), files.slice(0, 900))).resolves.toBeTruthy();
  });
});
