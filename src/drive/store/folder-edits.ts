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
 * The sorted links and the node bytes of the folders encoded lately, by CID. A folder's next version is its
 * previous one with a few links added or removed: a binary search each, instead of sorting every link of the
 * folder again at every upload (what made an upload's CPU grow with the drive), and its bytes are the
 * previous bytes with those links cut in or out, instead of every link's bytes joined again (about 200 µs
 * for a folder of 2,500 files). The same CID is the same links, so a version found here is exact whoever
 * encoded it; drives holding the same folder (the empty one) share it.
 */
interface KnownFolder {
  sorted: readonly EncodedLink[];
  bytes: Uint8Array;
}

const knownByCid = new LRUCache<string, KnownFolder>({
  // Bounded by links, not folders: a plain folder holds up to about 5,300 (then it is a shard). With the
  // node bytes (about 80 per link), the cache holds at most some 20 MB.
  maxSize: 200_000,
  sizeCalculation: (folder) => Math.max(1, folder.sorted.length),
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
 * that was already there keeps its first link, and removals come after additions. The links of `base` keep
 * their identity, which is how `reframed` tells them from the added ones.
 */
function edited(
  base: readonly EncodedLink[],
  edit: FolderEdit,
): { sorted: EncodedLink[]; added: Set<EncodedLink> } {
  const sorted = [...base];
  const added = new Set<EncodedLink>();
  for (const link of edit.add) {
    const encoded = encodedLink(link);
    if (search(base, encoded.name).found) continue;
    const { at, found } = search(sorted, encoded.name);
    if (found) continue;
    sorted.splice(at, 0, encoded);
    added.add(encoded);
  }
  for (const name of edit.remove) {
    const { at, found } = search(sorted, Buffer.from(name, 'utf8'));
    if (found) sorted.splice(at, 1);
  }
  return { sorted, added };
}

/**
 * The node bytes of `sorted` made from `previous`'s: the runs of links both versions hold are copied as
 * they are, an added link's field is cut in, a removed link's cut out. A node is its links' fields in order,
 * then the Data field (dag.ts, directoryNode), which stays at the end.
 */
function reframed(
  previous: KnownFolder,
  sorted: readonly EncodedLink[],
  added: ReadonlySet<EncodedLink>,
): Uint8Array {
  const old = previous.sorted;
  const pieces: Uint8Array[] = [];
  let size = 0;
  let runStart = 0;
  let offset = 0;
  let i = 0;
  const cut = (piece: Uint8Array) => {
    pieces.push(piece);
    size += piece.length;
  };
  const endRun = () => {
    if (offset > runStart) cut(previous.bytes.subarray(runStart, offset));
  };
  const skipRemoved = (until: EncodedLink | undefined) => {
    while (i < old.length && old[i] !== until) {
      endRun();
      offset += old[i]!.field.length;
      runStart = offset;
      i += 1;
    }
  };
  for (const link of sorted) {
    if (added.has(link)) {
      endRun();
      runStart = offset;
      cut(link.field);
      continue;
    }
    skipRemoved(link);
    offset += link.field.length;
    i += 1;
  }
  skipRemoved(undefined);
  cut(previous.bytes.subarray(runStart));
  return Buffer.concat(pieces, size);
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
  const previous = edit && knownByCid.get(edit.previous);
  let node: EncodedDirectory;
  let sorted: readonly EncodedLink[];
  if (previous) {
    const change = edited(previous.sorted, edit);
    sorted = change.sorted;
    node = await directoryNode(sorted, reframed(previous, sorted, change.added));
  } else {
    sorted = all().map(encodedLink).sort(byName);
    node = await directoryNode(sorted);
  }
  knownByCid.set(node.cid, { sorted, bytes: node.bytes });
  return node;
}
