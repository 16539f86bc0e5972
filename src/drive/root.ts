import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { StationError } from '../errors.js';
import { DRIVE_CATEGORIES, type DriveCategory } from './categories.js';
import { loadExplorer } from './explorer.js';
import type { DriveLinks } from './links.js';
import { EXPLORER_NAME, PUBLISHED_MANIFEST_NAME } from './listing-schema.js';
import { publishedManifestBytes, type PublishedSource } from './published.js';
import {
  DirectoryTooLargeError,
  encodeDirectory,
  type DirectoryLink,
  type EncodedDirectory,
} from './store/dag.js';
import { encodeEditedDirectory, type FolderEdit } from './store/folder-edits.js';
import { editShardedDirectory, encodeShardedDirectory } from './store/hamt.js';
import type { AddResult, ContentStore } from './store/types.js';

export type BlockWriter = Pick<ContentStore, 'putBlock'>;
/** What publishing a root needs: directory nodes, and the two files of the root (manifest and explorer). */
export type RootWriter = Pick<ContentStore, 'putBlock' | 'add'>;

export interface DriveRoot {
  rootCid: string;
  folders: Record<DriveCategory, string>;
  /** Cumulative DAG size of each folder: the Tsize the root links it with. */
  folderDagSizes: Record<DriveCategory, number>;
}

type Entry = PublishedSource['files'][number];

/** The previous tree of a drive, and the one category whose files changed since. */
export interface DriveRootChange {
  previous: {
    folders: Partial<Record<DriveCategory, string>>;
    folderDagSizes: Partial<Record<DriveCategory, number>>;
  };
  /** The categories whose files changed (several in a group commit). */
  changed: DriveCategory | readonly DriveCategory[];
  /**
   * The files added and removed since the previous tree, when known: a changed folder is then its previous
   * version edited (store/folder-edits.ts) instead of being encoded again from all its files.
   */
  files?: { added: readonly Entry[]; removed: readonly Entry[] };
}

/** Stores a node and checks the store agrees on its CID (a store with other defaults would break links). */
async function put(store: BlockWriter, node: Pick<EncodedDirectory, 'cid' | 'bytes'>): Promise<void> {
  const cid = await store.putBlock(node.bytes, node.cid);
  if (cid !== node.cid)
    throw new StationError('CID_MISMATCH', 'The content store computed another CID for a drive folder.');
}

/**
 * A category folder, stored: a plain directory, or past Kubo's sharding threshold (see store/dag.ts) the
 * HAMT shard `ipfs add -r` makes of it instead, each of its nodes checked like a plain folder.
 */
export async function storeFolder(
  store: BlockWriter,
  links: readonly DirectoryLink[] | (() => readonly DirectoryLink[]),
  edit?: FolderEdit,
): Promise<{ cid: string; dagSize: number }> {
  const all = typeof links === 'function' ? links : () => links;
  const putNode = async (bytes: Uint8Array) => {
    const cid = CID.createV0(await sha256.digest(bytes)).toString();
    await put(store, { cid, bytes });
    return cid;
  };
  // A shard that only grows stays a shard: its new names go into the trie it was (store/hamt.ts).
  const grown =
    edit && edit.remove.length === 0 && (await editShardedDirectory(edit.previous, edit.add, putNode));
  if (grown) return grown;
  let folder: EncodedDirectory;
  try {
    folder = await encodeEditedDirectory(all, edit);
  } catch (error) {
    if (!(error instanceof DirectoryTooLargeError)) throw error;
    return encodeShardedDirectory(all(), putNode);
  }
  await put(store, folder);
  return folder;
}

/** The root and wrappers: a handful of links, never past the sharding threshold. */
async function encode(links: Parameters<typeof encodeDirectory>[0]): Promise<EncodedDirectory> {
  try {
    return await encodeDirectory(links);
  } catch (error) {
    if (error instanceof DirectoryTooLargeError)
      throw new StationError('DRIVE_FOLDER_FULL', 'This drive folder has too many files; delete some first.');
    throw error;
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Not pinned by itself: the root that links it is. */
const addBytes = (store: RootWriter, bytes: Uint8Array) => store.add(once(bytes), { pin: false });

/** The explorer's bytes never change within a process: each store receives them once. */
const explorerAdded = new WeakMap<RootWriter, Promise<AddResult>>();

async function addExplorer(store: RootWriter): Promise<AddResult> {
  let added = explorerAdded.get(store);
  if (!added) {
    added = loadExplorer().then((explorer) => addBytes(store, explorer.bytes));
    explorerAdded.set(store, added);
    added.catch(() => explorerAdded.delete(store));
  }
  return added;
}

/** One link object per drive entry, so that its encoding is reused by every later folder (store/dag.ts). */
const entryLinks = new WeakMap<Entry, DirectoryLink>();

function linkOf(entry: Entry): DirectoryLink {
  let link = entryLinks.get(entry);
  if (!link) entryLinks.set(entry, (link = { name: entry.name, cid: entry.cid, dagSize: entry.dag_size }));
  return link;
}

/**
 * The drive's published tree: the nodes `ipfs add -r` makes of a folder holding one folder per category
 * (empty ones included) with the manifest's files by name, plus `manifest.json` (the public manifest, see
 * published.ts) and `_index.html` (the explorer). Hidden files are never in it. With `change`, the folders
 * of the other categories are taken from the previous tree instead of being rebuilt.
 */
export async function buildDriveRoot(
  store: RootWriter,
  drive: PublishedSource,
  options: {
    links: DriveLinks;
    change?: DriveRootChange;
    /** The public manifest, already stored (published-file.ts); by default built whole from `drive`. */
    manifest?: Promise<Pick<AddResult, 'cid' | 'dagSize'>>;
  },
): Promise<DriveRoot> {
  const { change } = options;
  const changed: readonly DriveCategory[] = change ? [change.changed].flat() : [];
  // Every node is stored at once: the store's writes of one publication share a transaction (store/block-storage.ts).
  const folderOf = async (category: DriveCategory): Promise<{ cid: string; dagSize: number }> => {
    const kept = change && !changed.includes(category) ? change.previous : null;
    const cid = kept?.folders[category];
    const dagSize = kept?.folderDagSizes[category];
    if (cid !== undefined && dagSize !== undefined) return { cid, dagSize };
    const links = () => drive.files.filter((f) => f.category === category).map(linkOf);
    return storeFolder(store, links, folderEdit(change, category));
  };
  const [built, manifest, explorer] = await Promise.all([
    Promise.all(DRIVE_CATEGORIES.map(folderOf)),
    options.manifest ?? addBytes(store, publishedManifestBytes(drive, options.links)),
    addExplorer(store),
  ]);
  const folders = {} as Record<DriveCategory, string>;
  const folderDagSizes = {} as Record<DriveCategory, number>;
  for (const [i, category] of DRIVE_CATEGORIES.entries()) {
    folders[category] = built[i]!.cid;
    folderDagSizes[category] = built[i]!.dagSize;
  }
  const root = await encode([
    ...DRIVE_CATEGORIES.map((name) => ({ name, cid: folders[name], dagSize: folderDagSizes[name] })),
    { name: EXPLORER_NAME, cid: explorer.cid, dagSize: explorer.dagSize },
    { name: PUBLISHED_MANIFEST_NAME, cid: manifest.cid, dagSize: manifest.dagSize },
  ]);
  await put(store, root);
  return { rootCid: root.cid, folders, folderDagSizes };
}

/** What changed in `category`'s folder since the previous tree, when the change says which files. */
function folderEdit(change: DriveRootChange | undefined, category: DriveCategory): FolderEdit | undefined {
  const previous = change?.previous.folders[category];
  if (!previous || !change?.files) return undefined;
  const { added, removed } = change.files;
  return {
    previous,
    add: added.filter((f) => f.category === category).map(linkOf),
    remove: removed.filter((f) => f.category === category).map((f) => f.name),
  };
}

/** The `ipfs add -w` wrapper of one file, so that `<wrapper>/<name>` links to it under its name. */
export async function wrapFile(
  store: BlockWriter,
  file: { name: string; cid: string; dagSize: number },
): Promise<string> {
  const wrapper = await encode([file]);
  await put(store, wrapper);
  return wrapper.cid;
}
