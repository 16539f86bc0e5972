import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { expect } from 'vitest';
import { DRIVE_CATEGORIES } from '../../src/drive/categories.js';
import { loadExplorer } from '../../src/drive/explorer.js';
import type { DriveLinks } from '../../src/drive/links.js';
import type { Manifest } from '../../src/drive/manifest.js';
import { publishedManifestBytes } from '../../src/drive/published.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import { FOLDER_FANOUT, PLAIN_FOLDER_MAX_ESTIMATE } from '../../src/drive/tree/folder.js';
import { DEFAULT_LINKS, ROOT_ENTRIES } from './drive-fixture.js';
import { collect } from './helpers.js';

/**
 * The CID `ipfs add -r` gives a category folder as it is on disk (hidden files left out), with the drive's
 * sharding (tree/folder.ts: a plain directory up to PLAIN_FOLDER_MAX_ESTIMATE bytes of links, a HAMT of
 * FOLDER_FANOUT past it), computed by ipfs-unixfs-importer's own directory builder rather than the drive's.
 */
export async function folderCidOnDisk(dir: string): Promise<string> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
  const candidates: ImportCandidate[] = [
    { path: 'folder' },
    ...names.map((name) => ({ path: `folder/${name}`, content: createReadStream(join(dir, name)) })),
  ];
  const sink = { put: async (cid: CID) => cid };
  let folder = '';
  for await (const entry of importer(candidates, sink, {
    profile: 'unixfs-v0-2015',
    shardSplitThresholdBytes: PLAIN_FOLDER_MAX_ESTIMATE,
    shardFanoutBits: Math.log2(FOLDER_FANOUT),
  }))
    if (entry.path === 'folder') folder = entry.cid.toString();
  return folder;
}

/**
 * A published drive root is the drive as it is: its four category folders are what `ipfs add -r` makes of
 * the folders on disk (folderCidOnDisk: the same files, the same bytes, nothing else), `_index.html` is the
 * built explorer, and `manifest.json` holds the public manifest of `manifest` byte for byte (its CID is not
 * `ipfs add`'s: it is stored as pages by seq, tree/manifest-tree.ts), which lists the files on disk.
 */
export async function expectPublishedAsOnDisk(
  store: Pick<ContentStore, 'ls' | 'cat'>,
  root: string,
  driveDir: string,
  manifest: Manifest,
  links: DriveLinks = DEFAULT_LINKS,
): Promise<void> {
  const entries = await store.ls(root);
  expect(entries.map((e) => e.name)).toEqual(ROOT_ENTRIES);
  const cidOf = (name: string) => entries.find((e) => e.name === name)?.cid;
  for (const category of DRIVE_CATEGORIES)
    expect(cidOf(category), category).toBe(await folderCidOnDisk(join(driveDir, category)));
  expect(cidOf('_index.html')).toBe((await loadExplorer()).cid);
  const published = await collect(store.cat(`${root}/manifest.json`));
  expect(published.toString()).toBe(Buffer.from(publishedManifestBytes(manifest, links)).toString());
  const onDisk: string[] = [];
  for (const category of DRIVE_CATEGORIES)
    for (const name of await readdir(join(driveDir, category)).catch(() => [] as string[]))
      if (!name.startsWith('.')) onDisk.push(`${category}/${name}`);
  expect(manifest.files.map((f) => f.path).sort()).toEqual(onDisk.sort());
}

/**
 * Two roots publish the same drive: the same folders and explorer (the same CIDs) and the same manifest text.
 * Their CIDs may still differ: manifest.json's pages follow the files' seq (tree/manifest-tree.ts), and a file
 * deleted then added again takes a new one.
 */
export async function expectSamePublishedDrive(
  store: Pick<ContentStore, 'ls' | 'cat'>,
  root: string,
  other: string,
): Promise<void> {
  const links = async (cid: string) =>
    (await store.ls(cid)).filter((e) => e.name !== 'manifest.json').map((e) => [e.name, e.cid]);
  expect(await links(root)).toEqual(await links(other));
  const manifest = async (cid: string) => (await collect(store.cat(`${cid}/manifest.json`))).toString();
  expect(await manifest(root)).toBe(await manifest(other));
}
