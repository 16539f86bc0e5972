import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManifestEntry } from '../../../src/drive/manifest.js';
import { buildDriveRoot } from '../../../src/drive/root.js';
import { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { tempDir } from '../../helpers/temp.js';
import { addRecursiveCid, DEFAULT_LINKS, ROOT_ENTRIES } from '../drive-fixture.js';
import { collect, once_ } from '../helpers.js';

/** 5,400 names of 15 bytes: 5,400 × (15 + 34) = 264,600 bytes of links, past the 262,144 threshold. */
const PHOTOS = Array.from({ length: 5400 }, (_, i) => `photo-${String(i + 1).padStart(5, '0')}.jpg`);
const owner_hex_pubkey = 'cd'.repeat(32);

describe('a drive whose Images folder passes Kubo’s sharding threshold', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: EmbeddedStore;
  let driveDir: string;
  let files: ManifestEntry[];

  /** Writes a file of the drive on disk and adds it to the store, as an upload would. */
  async function addFile(category: ManifestEntry['category'], name: string): Promise<ManifestEntry> {
    const bytes = Buffer.from(`${category}/${name}\n`);
    await writeFile(join(driveDir, category, name), bytes);
    const added = await store.add(once_(bytes), { pin: false });
    return {
      path: `${category}/${name}`,
      name,
      category,
      file_type: 'image',
      mime_type: 'image/jpeg',
      size: added.size,
      sha256: '00'.repeat(32),
      cid: added.cid,
      dag_size: added.dagSize,
      ipfs_link: `${added.cid}/${name}`,
      added_at: '2024-06-12T14:30:15.000Z',
      source: { kind: 'cli' },
    };
  }

  /** The drive's root as the drive builds it, and as `ipfs add -r` of its directory gives it. */
  async function publish(change?: Parameters<typeof buildDriveRoot>[2]['change']) {
    await writeFile(join(driveDir, 'manifest.json'), JSON.stringify({ owner_hex_pubkey, files }));
    const root = await buildDriveRoot(store, { owner_hex_pubkey, files }, { links: DEFAULT_LINKS, change });
    return { root, expected: await addRecursiveCid(driveDir) };
  }

  beforeAll(async () => {
    dir = await tempDir('drive-hamt-');
    store = await EmbeddedStore.open(join(dir.path, 'ipfs'));
    driveDir = join(dir.path, 'uDRIVE');
    for (const category of ['Documents', 'Images', 'Music', 'Videos'])
      await mkdir(join(driveDir, category), { recursive: true });
    files = [await addFile('Documents', 'notes.txt')];
    for (let i = 0; i < PHOTOS.length; i += 200)
      files.push(...(await Promise.all(PHOTOS.slice(i, i + 200).map((name) => addFile('Images', name)))));
  });
  afterAll(async () => {
    await store.close();
    await dir.cleanup();
  });

  it('publishes the root `ipfs add -r` gives, whose shard the store lists and resolves by name', async () => {
    const { root, expected } = await publish();
    expect(root.rootCid).toBe(expected);
    expect(await store.stat(`${root.rootCid}/Images`)).toEqual({
      cid: root.folders.Images,
      type: 'directory',
      size: 0,
      dagSize: root.folderDagSizes.Images,
    });
    const listing = await store.ls(`${root.rootCid}/Images`);
    expect(listing.map((entry) => entry.name).sort()).toEqual(PHOTOS);
    const photo = files.find((f) => f.name === 'photo-04242.jpg')!;
    expect(listing).toContainEqual({ name: photo.name, cid: photo.cid, type: 'file', size: photo.size });
    expect(await store.stat(`${root.rootCid}/Images/${photo.name}`)).toEqual({
      cid: photo.cid,
      type: 'file',
      size: photo.size,
      dagSize: photo.dag_size,
    });
    const bytes = await collect(store.cat(`${root.rootCid}/Images/${photo.name}`));
    expect(bytes.toString()).toBe('Images/photo-04242.jpg\n');
    await expect(store.stat(`${root.rootCid}/Images/photo-99999.jpg`)).rejects.toMatchObject({
      code: 'CONTENT_NOT_FOUND',
    });
    // The other folders and the root stay plain directories.
    expect((await store.ls(root.rootCid)).map((entry) => entry.name)).toEqual(ROOT_ENTRIES);
  });

  it('rebuilds only Images when it grows, and goes back to a plain folder below the threshold', async () => {
    const before = await publish();
    const previous = { folders: before.root.folders, folderDagSizes: before.root.folderDagSizes };
    files.push(await addFile('Images', 'IMG_20240612_143015.jpg'));
    const grown = await publish({ changed: 'Images', previous });
    expect(grown.root.rootCid).toBe(grown.expected);
    expect(grown.root.folders.Documents).toBe(before.root.folders.Documents);
    expect(grown.root).toEqual(
      await buildDriveRoot(store, { owner_hex_pubkey, files }, { links: DEFAULT_LINKS }),
    );
    // 5,340 photos are 261,660 bytes of links: `ipfs add -r` makes a plain directory of them again.
    const removed = files.filter((f) => f.category === 'Images').slice(5340);
    for (const f of removed) await rm(join(driveDir, f.path));
    files = files.filter((f) => !removed.includes(f));
    const shrunk = await publish({
      changed: 'Images',
      previous: { folders: grown.root.folders, folderDagSizes: grown.root.folderDagSizes },
    });
    expect(shrunk.root.rootCid).toBe(shrunk.expected);
    expect(await store.ls(shrunk.root.folders.Images)).toHaveLength(5340);
  });

  it('grows the shard from its previous version and shrinks it whole, as uploads and deletions do', async () => {
    // The drive's publications say which files changed (`files`): a shard that only grows is edited in place.
    const putBlock = vi.spyOn(store, 'putBlock');
    let before = await publish();
    const nodesStored: number[] = [];
    // 5,340 photos are 484 bytes under the threshold: the fifth long name (94 bytes of link each) shards it.
    const names = [
      'a.jpg',
      'z-last.jpg',
      ...Array.from({ length: 7 }, (_, i) => `été ${'long name '.repeat(5)}${i}.jpg`),
    ];
    for (const name of names) {
      const added = await addFile('Images', name);
      files.push(added);
      const previous = { folders: before.root.folders, folderDagSizes: before.root.folderDagSizes };
      putBlock.mockClear();
      const after = await publish({ changed: 'Images', previous, files: { added: [added], removed: [] } });
      nodesStored.push(putBlock.mock.calls.length);
      expect(after.root.rootCid).toBe(after.expected);
      before = after;
    }
    // Plain, the folder and the root are stored again; the upload that shards it stores the whole shard (about
    // 257 nodes); each one after that only the shard's root, the sub-shard of its name and the drive's root.
    const sharding = nodesStored.findIndex((stored) => stored > 200);
    expect(sharding).toBe(6);
    for (const stored of nodesStored.filter((_, i) => i !== sharding)) expect(stored).toBeLessThan(10);
    const removed = files.filter((f) => f.name === 'a.jpg' || f.name === 'z-last.jpg');
    for (const f of removed) await rm(join(driveDir, f.path));
    files = files.filter((f) => !removed.includes(f));
    const previous = { folders: before.root.folders, folderDagSizes: before.root.folderDagSizes };
    const shrunk = await publish({ changed: 'Images', previous, files: { added: [], removed } });
    expect(shrunk.root.rootCid).toBe(shrunk.expected);
    expect(await store.ls(shrunk.root.folders.Images)).toHaveLength(5340 + 7);
    putBlock.mockRestore();
  });
});
