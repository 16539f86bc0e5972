import { LRUCache } from 'lru-cache';
import {
  byName,
  directoryNode,
  encodedLink,
  framedDirectory,
  type DirectoryLink,
  type EncodedDirectory,
  type EncodedLink,
  type FramedDirectory,
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
 * previous bytes with those links cut in or out, instead of every link's bytes joined again. Where each link
 * starts in the bytes is kept too: finding the runs to copy walked every link, about 640 µs per upload for a
 * folder of 2,500 files (README, "Writes"). The same CID is the same links, so a version found here is exact
 * whoever encoded it; drives holding the same folder (the empty one) share it.
 */
interface KnownFolder extends FramedDirectory {
  sorted: readonly EncodedLink[];
  /** Where link i's field starts in `bytes`; the last entry is where the Data field starts. */
  starts: Uint32Array;
}

const knownByCid = new LRUCache<string, KnownFolder>({
  // Bounded by links, not folders: a plain folder holds up to about 5,300 (then it is a shard). With the
  // node bytes and starts (about 85 per link), the cache holds at most some 20 MB.
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

/** A folder framed from all its links (throws past the sharding threshold, see framedDirectory). */
function known(sorted: readonly EncodedLink[]): KnownFolder {
  const framed = framedDirectory(sorted);
  const starts = new Uint32Array(sorted.length + 1);
  for (let i = 0; i < sorted.length; i++) starts[i + 1] = starts[i]! + sorted[i]!.field.length;
  return { ...framed, sorted, starts };
}

/** An added link, and the index of the link of the previous version it goes before. */
interface Insert {
  at: number;
  link: EncodedLink;
}

/**
 * What `edit` changes in `base`, as the drive's list after a change has it (DriveState.filesAfter): an added
 * name that was already there keeps its first link, and removals come after additions (a name added and
 * removed in one edit is not there after it). Insertions are at the index of the link they go before.
 */
function changesOf(base: KnownFolder, edit: FolderEdit): { inserts: Insert[]; removals: number[] } {
  const additions = new Map<string, Insert>();
  for (const link of edit.add) {
    const encoded = encodedLink(link);
    const key = encoded.name.toString('latin1');
    const { at, found } = search(base.sorted, encoded.name);
    if (!found && !additions.has(key)) additions.set(key, { at, link: encoded });
  }
  const removed = new Set<number>();
  for (const name of edit.remove) {
    const bytes = Buffer.from(name, 'utf8');
    if (additions.delete(bytes.toString('latin1'))) continue;
    const { at, found } = search(base.sorted, bytes);
    if (found) removed.add(at);
  }
  const inserts = [...additions.values()].sort((a, b) => a.at - b.at || byName(a.link, b.link));
  return { inserts, removals: [...removed].sort((a, b) => a - b) };
}

/**
 * `base` with `edit` made: its links, the starts of their fields and its node bytes. The runs of links both
 * versions hold are copied as they are, an added link's field is cut in and a removed link's cut out. A node
 * is its links' fields in order, then the Data field (dag.ts, framedDirectory), which stays at the end.
 */
function edited(base: KnownFolder, edit: FolderEdit): KnownFolder {
  const { inserts, removals } = changesOf(base, edit);
  const old = base.sorted;
  const count = old.length + inserts.length - removals.length;
  const runs: (readonly EncodedLink[])[] = [];
  const starts = new Uint32Array(count + 1);
  const pieces: Uint8Array[] = [];
  let { estimate, linked } = base;
  let from = 0;
  let to = 0;
  let shift = 0;
  // Runs are copied whole (slices, typed-array copies): a loop over every link cost a third of hashing the node.
  const keepUntil = (end: number) => {
    if (end <= from) return;
    pieces.push(base.bytes.subarray(base.starts[from], base.starts[end]));
    runs.push(old.slice(from, end));
    starts.set(base.starts.subarray(from, end), to);
    if (shift !== 0) for (let k = to; k < to + end - from; k++) starts[k]! += shift;
    to += end - from;
    from = end;
  };
  let nextInsert = 0;
  let nextRemoval = 0;
  while (nextInsert < inserts.length || nextRemoval < removals.length) {
    const insert = inserts[nextInsert];
    const removal = removals[nextRemoval] ?? Infinity;
    if (insert && insert.at <= removal) {
      keepUntil(insert.at);
      const { link } = insert;
      pieces.push(link.field);
      runs.push([link]);
      starts[to++] = base.starts[from]! + shift;
      shift += link.field.length;
      estimate += link.estimate;
      linked += link.dagSize;
      nextInsert++;
    } else {
      keepUntil(removal);
      const link = old[from++]!;
      shift -= link.field.length;
      estimate -= link.estimate;
      linked -= link.dagSize;
      nextRemoval++;
    }
  }
  keepUntil(old.length);
  starts[count] = base.starts[old.length]! + shift;
  pieces.push(base.bytes.subarray(base.starts[old.length]));
  return {
    sorted: ([] as EncodedLink[]).concat(...runs),
    starts,
    bytes: Buffer.concat(pieces),
    estimate,
    linked,
  };
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
  const next = previous ? edited(previous, edit) : known(all().map(encodedLink).sort(byName));
  const node = await directoryNode(next);
  knownByCid.set(node.cid, next);
  return node;
}
