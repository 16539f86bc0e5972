import { AppError } from '../http/errors.js';
import { DRIVE_CATEGORIES, type DriveCategory } from './categories.js';
import type { ManifestEntry } from './manifest.js';
import { DirectoryTooLargeError, encodeDirectory, type EncodedDirectory } from './store/dag.js';
import type { ContentStore } from './store/types.js';

export type BlockWriter = Pick<ContentStore, 'putBlock'>;

export interface DriveRoot {
  rootCid: string;
  folders: Record<DriveCategory, string>;
  /** Cumulative DAG size of each folder: the Tsize the root links it with. */
  folderDagSizes: Record<DriveCategory, number>;
}

/** The previous tree of a drive, and the one category whose files changed since. */
export interface DriveRootChange {
  previous: {
    folders: Partial<Record<DriveCategory, string>>;
    folderDagSizes: Partial<Record<DriveCategory, number>>;
  };
  changed: DriveCategory;
}

/** Stores a node and checks the store agrees on its CID (a store with other defaults would break links). */
async function put(store: BlockWriter, node: EncodedDirectory): Promise<void> {
  const cid = await store.putBlock(node.bytes);
  if (cid !== node.cid)
    throw new AppError(500, 'CID_MISMATCH', 'The content store computed another CID for a drive folder.');
}

async function encode(links: Parameters<typeof encodeDirectory>[0]): Promise<EncodedDirectory> {
  try {
    return await encodeDirectory(links);
  } catch (error) {
    if (error instanceof DirectoryTooLargeError)
      throw new AppError(
        507,
        'DRIVE_FOLDER_FULL',
        'This drive folder has too many files; delete some first.',
      );
    throw error;
  }
}

/**
 * The drive's published tree, the same nodes `ipfs add -r` makes of `APP/uDRIVE` without its manifest and
 * hidden files: one folder per category (empty ones included) holding the manifest's files by name. With
 * `change`, the folders of the other categories are taken from the previous tree instead of being rebuilt.
 */
export async function buildDriveRoot(
  store: BlockWriter,
  files: readonly ManifestEntry[],
  change?: DriveRootChange,
): Promise<DriveRoot> {
  const folders = {} as Record<DriveCategory, string>;
  const folderDagSizes = {} as Record<DriveCategory, number>;
  for (const category of DRIVE_CATEGORIES) {
    const kept = change && category !== change.changed ? change.previous : null;
    const keptCid = kept?.folders[category];
    const keptSize = kept?.folderDagSizes[category];
    if (keptCid !== undefined && keptSize !== undefined) {
      folders[category] = keptCid;
      folderDagSizes[category] = keptSize;
      continue;
    }
    const links = files
      .filter((f) => f.category === category)
      .map((f) => ({ name: f.name, cid: f.cid, dagSize: f.dag_size }));
    const folder = await encode(links);
    await put(store, folder);
    folders[category] = folder.cid;
    folderDagSizes[category] = folder.dagSize;
  }
  const root = await encode(
    DRIVE_CATEGORIES.map((name) => ({ name, cid: folders[name], dagSize: folderDagSizes[name] })),
  );
  await put(store, root);
  return { rootCid: root.cid, folders, folderDagSizes };
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
