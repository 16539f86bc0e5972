import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { parsedCid } from '../store/cid-text.js';
import { leafBlock } from '../store/file-leaves.js';
import type { EntryRecord, PageRecord } from '../db/records.js';
import type { NodeStore } from './nodes.js';

/**
 * The published `manifest.json` of a drive (published.ts gives its text: a header, one line per file in the
 * order they were added, the totals) stored so that a change rewrites a few KiB whatever the drive holds:
 * - files are grouped into pages by their `seq` (the order they were added): page p holds the files with
 *   seq in [p·PAGE_FILES, (p+1)·PAGE_FILES), each page one UnixFS leaf of their lines;
 * - inner nodes group TREE_FANOUT consecutive nodes of the level below (node i of level l covers pages
 *   [i·F^l, (i+1)·F^l)), up to one node over every page;
 * - the file's root links the header's leaf, that top node, and the totals' leaf.
 * A change rebuilds the pages of the files it adds or removes and the inner nodes above them. The layout
 * follows from the files and their seq alone, so removing the last file added gives back the previous CID.
 * Any UnixFS reader reads the file whole (its bytes are the same JSON as before); only its CID differs from
 * what `ipfs add` gives the same text (docs/decisions.md, "The drive's published tree").
 */
export const PAGE_FILES = 4;
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
  /** A node of the tree as committed (before this change). */
  row(level: number, index: number): PageRecord | undefined;
}

/** Rows this change writes (a record) or removes (null), by `level:index`. */
export type RowChanges = Map<string, { level: number; index: number; record: PageRecord | null }>;

/** The new manifest file, the tree rows to write, and the level above which rows are dropped (or null). */
export interface ManifestEdit {
  file: PageRecord;
  rows: RowChanges;
  dropAbove: number | null;
}

const pageOf = (seq: number) => Math.floor(seq / PAGE_FILES);

/** How many levels of inner nodes cover pages 0..maxPage: at least one. */
function levelsFor(maxPage: number): number {
  let levels = 1;
  while (Math.floor(maxPage / TREE_FANOUT ** levels) > 0) levels += 1;
  return levels;
}

async function leaf(store: NodeStore, text: string): Promise<PageRecord> {
  const data = Buffer.from(text, 'utf8');
  const block = leafBlock(data);
  return { cid: await store.put(block), size: data.length, dagSize: block.length };
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

/**
 * The manifest after a change: `touched` are the seqs of the files added and removed, `before` the seq range
 * the drive held before it (the first file's line has no leading comma, and the tree's height follows the
 * last page). Answers the file and the rows to write.
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
  const oldLevels = before ? levelsFor(pageOf(before.max)) : 0;
  const levels = after ? levelsFor(pageOf(after.max)) : 0;
  let indexes = new Set(pages);
  for (let level = 1; level <= levels; level++) {
    const parents = new Set([...indexes].map((i) => Math.floor(i / TREE_FANOUT)));
    // A tree grown taller puts its old top under a new one: that node is new too.
    if (level > oldLevels) parents.add(0);
    for (const parent of parents) {
      const children: PageRecord[] = [];
      for (let i = parent * TREE_FANOUT; i < (parent + 1) * TREE_FANOUT; i++) {
        const child = rowAt(level - 1, i);
        if (child) children.push(child);
      }
      set(level, parent, children.length > 0 ? await fileNode(store, children) : null);
    }
    indexes = parents;
  }
  const top = levels > 0 ? rowAt(levels, 0) : undefined;
  const head = await leaf(store, view.head);
  const tail = await leaf(
    store,
    (view.totals.files > 0 ? '\n' : '') + view.tail(view.totals.files, view.totals.bytes),
  );
  const file = await fileNode(store, top ? [head, top, tail] : [head, tail]);
  // A tree grown shorter: the levels above its new top are dropped whole (rows there are not kept current).
  return { file, rows, dropAbove: levels < oldLevels ? levels : null };
}

/** The manifest of a drive built whole (a migration): every file's seq touched, nothing before. */
export function buildManifest(store: NodeStore, view: ManifestView): Promise<ManifestEdit> {
  const seqs: number[] = [];
  const range = view.seqRange();
  if (range) for (const entry of view.entriesBetween(range.min, range.max + 1)) seqs.push(entry.seq);
  return editManifest(store, view, seqs, null);
}
