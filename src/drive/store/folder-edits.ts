import { LRUCache } from 'lru-cache';
import {
  byName,
  directoryNode,
  encodedLink,
  type DirectoryLink,
  type EncodedDirectory,
  type EncodedLink,
} from './dag.js';

/** What changed in a folder since the version `previous` (a CID): links added, names removed. */
export interface FolderEdit {
  previous: string;
  add: readonly DirectoryLink[];
  remove: readonly string[];
}

/**
 * The sorted links of the folders encoded lately, by CID. A folder's next version is its previous one with a
 * few links added or removed: a binary search each, instead of sorting every link of the folder again at
 * every upload (what made an upload's CPU grow with the drive). The same CID is the same links, so a
 * version found here is exact whoever encoded it; drives holding the same folder (the empty one) share it.
 */
const sortedByCid = new LRUCache<string, readonly EncodedLink[]>({
  // Bounded by links, not folders: a plain folder holds up to about 5,300 (then it is a shard).
  maxSize: 200_000,
  sizeCalculation: (links) => Math.max(1, links.length),
});

/** Where `name` is in `sorted`, or where it would go. */
function search(sorted: readonly EncodedLink[], name: Buffer): { at: number; found: boolean } {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare(sorted[middle]!.name, name);
    if (order === 0) return { at: middle, found: true };
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return { at: low, found: false };
}

/**
 * `base` with `edit` made, as the drive's list after a change has it (DriveState.filesAfter): an added name
 * that was already there keeps its first link, and removals come after additions.
 */
function edited(base: readonly EncodedLink[], edit: FolderEdit): EncodedLink[] {
  const sorted = [...base];
  for (const link of edit.add) {
    const encoded = encodedLink(link);
    if (search(base, encoded.name).found) continue;
    const { at, found } = search(sorted, encoded.name);
    if (!found) sorted.splice(at, 0, encoded);
  }
  for (const name of edit.remove) {
    const { at, found } = search(sorted, Buffer.from(name, 'utf8'));
    if (found) sorted.splice(at, 1);
  }
  return sorted;
}

/**
 * A folder's node, built from its previous version and `edit` when that version was encoded lately, or else
 * from `all` its links; the same bytes either way (test/drive/store/folder-edits.test.ts). Throws
 * DirectoryTooLargeError past the sharding threshold, like encodeDirectory.
 */
export async function encodeEditedDirectory(
  all: () => readonly DirectoryLink[],
  edit?: FolderEdit,
): Promise<EncodedDirectory> {
  const base = edit && sortedByCid.get(edit.previous);
  const sorted = base ? edited(base, edit) : all().map(encodedLink).sort(byName);
  const node = await directoryNode(sorted);
  sortedByCid.set(node.cid, sorted);
  return node;
}
