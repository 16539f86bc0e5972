import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { parsedCid } from '../store/cid-text.js';
import { leafBlock } from '../store/file-leaves.js';
import type { EntryRecord, PageRecord } from '../db/records.js';
import { LRUCache } from 'lru-cache';
import { cidV0Of, type NodeStore } from './nodes.js';

/**
 * The published `manifest.json` of a drive (published.ts gives its text: a header, one line per file in the
 * order they were added, the totals) stored so that a change rewrites a few KiB whatever the drive holds:
 * - files are grouped into pages by their `seq` (the order they were added): page p holds the files with
 *   seq in [p·PAGE_FILES, (p+1)·PAGE_FILES), each page one UnixFS leaf of their lines;
 * - a group of TREE_FANOUT^k aligned pages that lies wholly before the last page is one inner node over
 *   the TREE_FANOUT groups one level down (node i of level k covers pages [i·F^k, (i+1)·F^k));
 * - the file's root links the header's leaf, then the largest such groups covering the pages from the first
 *   on (the digits of the page count in base F: at most F−1 groups a level), then the totals' leaf.
 * Appending a file rewrites its page, the root and the totals, and now and then completes a group (one node
 * in F); changing a file elsewhere rewrites its page and the groups above it. The layout follows from the
 * files and their seq alone, so removing the last file added gives back the previous CID. Any UnixFS reader
 * reads the file whole (its bytes are the same JSON as before); only its CID differs from what `ipfs add`
 * gives the same text (docs/decisions.md, "The drive's published tree").
 */
export const PAGE_FILES = 2;
export const TREE_FANOUT = 8;

/** What building the manifest needs of the drive as it is after the change. */
export interface ManifestView {
  /** The header's text (published.ts `publishedText.head`). */
  head: string;
  /** Every file's line (published.ts `publishedText.line`). */
  line(entry: EntryRecord): string;
  tail(files: number, bytes: number): string;
  /** The drive's files with seq in [from, to), in seq order. */
  entriesBetween(from: number, to: number): EntryRecord[];
  /** The smallest and largest seq held, null when empty. */
  seqRange(): { min: number; max: number } | null;
  totals: { files: number; bytes: number };
  /** A node of the tree as committed (before this change): level 0 pages, above them whole groups. */
  row(level: number, index: number): PageRecord | undefined;
}

/** Rows this change writes (a record) or removes (null), by `level:index`. */
export type RowChanges = Map<string, { level: number; index: number; record: PageRecord | null }>;

/** The new manifest file, and the tree rows to write. */
export interface ManifestEdit {
  file: PageRecord;
  rows: RowChanges;
}

const F = TREE_FANOUT;
const pageOf = (seq: number) => Math.floor(seq / PAGE_FILES);
/** Pages in a drive whose last file has seq `max`: the pages before the last one's end. */
const pageCount = (range: { max: number } | null) => (range ? pageOf(range.max) + 1 : 0);

async function leaf(store: NodeStore, text: string): Promise<PageRecord> {
  const data = Buffer.from(text, 'utf8');
  const block = leafBlock(data);
  return { cid: await store.put(block), size: data.length, dagSize: block.length };
}

/**
 * The header's leaf: the same for every change of a drive (and every drive of a station but for its key), so
 * its block is framed and hashed once per text. Content-addressed: what is kept is what the text gives.
 */
const heads = new LRUCache<string, { record: PageRecord; block: Uint8Array }>({ max: 1024 });

async function headLeaf(store: NodeStore, text: string): Promise<PageRecord> {
  let known = heads.get(text);
  if (!known) {
    const data = Buffer.from(text, 'utf8');
    const block = leafBlock(data);
    known = { record: { cid: cidV0Of(block), size: data.length, dagSize: block.length }, block };
    heads.set(text, known);
  }
  await store.putKnown(known.record.cid, known.block);
  return known.record;
}

/** A UnixFS file node over `children` (in order). */
async function fileNode(store: NodeStore, children: readonly PageRecord[]): Promise<PageRecord> {
  const unixfs = new UnixFS({ type: 'file', blockSizes: children.map((c) => BigInt(c.size)) });
  const bytes = dagPb.encode({
    Data: unixfs.marshal(),
    Links: children.map((c) => ({ Hash: parsedCid(c.cid), Tsize: c.dagSize })),
  });
  const size = children.reduce((sum, c) => sum + c.size, 0);
  const dagSize = children.reduce((sum, c) => sum + c.dagSize, bytes.length);
  return { cid: await store.put(bytes), size, dagSize };
}

/** The whole groups of `pages` pages, largest first: [level, index] of each (the base-F digits of `pages`). */
function decomposition(pages: number): [number, number][] {
  const groups: [number, number][] = [];
  let level = 0;
  while (F ** (level + 1) <= pages) level += 1;
  let start = 0;
  for (; level >= 0; level--) {
    const size = F ** level;
    while (start + size <= pages) {
      groups.push([level, start / size]);
      start += size;
    }
  }
  return groups;
}

/**
 * The manifest after a change: `touched` are the seqs of the files added and removed, `before` the seq range
 * the drive held before it (the first file's line has no leading comma, and the groups follow the last page).
 * Answers the file and the rows to write.
 */
export async function editManifest(
  store: NodeStore,
  view: ManifestView,
  touched: readonly number[],
  before: { min: number; max: number } | null,
): Promise<ManifestEdit> {
  const rows: RowChanges = new Map();
  const after = view.seqRange();
  const rowAt = (level: number, index: number) => {
    const changed = rows.get(`${level}:${index}`);
    return changed ? (changed.record ?? undefined) : view.row(level, index);
  };
  const set = (level: number, index: number, record: PageRecord | null) =>
    rows.set(`${level}:${index}`, { level, index, record });
  const pages = new Set(touched.map(pageOf));
  // A new first file loses its leading comma: its page changes too.
  if (after && after.min !== before?.min) pages.add(pageOf(after.min));
  for (const page of pages) {
    const files = view.entriesBetween(page * PAGE_FILES, (page + 1) * PAGE_FILES);
    const text = files.map((f) => (f.seq === after?.min ? '' : ',\n') + view.line(f)).join('');
    set(0, page, files.length > 0 ? await leaf(store, text) : null);
  }
  const count = pageCount(after);
  const countBefore = pageCount(before);
  for (let level = 1; F ** level <= Math.max(count, countBefore); level++) {
    const size = F ** level;
    const dirty = new Set<number>();
    for (const page of pages)
      if ((Math.floor(page / size) + 1) * size <= count) dirty.add(Math.floor(page / size));
    // Groups the last page now passes are whole (built); groups it no longer passes are not (dropped).
    for (let i = Math.floor(countBefore / size); i < Math.floor(count / size); i++) dirty.add(i);
    for (let i = Math.floor(count / size); i < Math.floor(countBefore / size); i++) set(level, i, null);
    for (const index of dirty) {
      const children: PageRecord[] = [];
      for (let i = index * F; i < (index + 1) * F; i++) {
        const child = rowAt(level - 1, i);
        if (child) children.push(child);
      }
      set(level, index, children.length > 0 ? await fileNode(store, children) : null);
    }
  }
  const groups = decomposition(count)
    .map(([level, index]) => rowAt(level, index))
    .filter((row): row is PageRecord => row !== undefined);
  const head = await headLeaf(store, view.head);
  const totals = view.tail(view.totals.files, view.totals.bytes);
  const tail = await leaf(store, (view.totals.files > 0 ? '\n' : '') + totals);
  return { file: await fileNode(store, [head, ...groups, tail]), rows };
}

/** The manifest of a drive built whole (a migration): every file's seq touched, nothing before. */
export function buildManifest(store: NodeStore, view: ManifestView): Promise<ManifestEdit> {
  const seqs: number[] = [];
  const range = view.seqRange();
  if (range) for (const entry of view.entriesBetween(range.min, range.max + 1)) seqs.push(entry.seq);
  return editManifest(store, view, seqs, null);
}
