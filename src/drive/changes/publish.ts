import { DRIVE_CATEGORIES, type DriveCategory } from '../categories.js';
import type { DriveReads } from '../db/reads.js';
import type { FolderRef } from '../db/records.js';
import type { DriveLinks } from '../links.js';
import { publishedText } from '../published.js';
import { encodeRoot } from '../tree/drive-root.js';
import { editFolder, emptyFolder } from '../tree/folder.js';
import { editManifest, type ManifestEdit, type ManifestView } from '../tree/manifest-tree.js';
import type { NodeStore } from '../tree/nodes.js';
import type { DriveView } from './drive-view.js';

/** What building a drive's tree needs besides the drive: its owner's e-mail, the links it names. */
export interface TreeContext {
  email: string;
  links: DriveLinks;
  reads: DriveReads;
}

export interface PublishedTree {
  root: string;
  folders: Record<DriveCategory, FolderRef>;
  manifest: ManifestEdit;
}

/** The published manifest's text, as `view` leaves the drive (published.ts lays it out). */
export function manifestView(view: DriveView, context: TreeContext): ManifestView {
  return {
    head: publishedText.head({ owner_hex_pubkey: view.hex }, context.links),
    line: publishedText.line,
    tail: publishedText.tail,
    entriesBetween: (from, to) => view.entriesBetween(from, to),
    seqRange: () => view.seqRange(),
    totals: view.totals,
    row: (level, index) => view.row(level, index),
  };
}

/**
 * The drive's published tree once `view`'s change is made: only the folders of the categories it touches
 * are edited, and the manifest's pages of the files it adds or removes (tree/manifest-tree.ts).
 */
export async function publishTree(
  view: DriveView,
  nodes: NodeStore,
  context: TreeContext,
): Promise<PublishedTree> {
  const empty = view.head ? null : await emptyFolder(nodes);
  const folders = {} as Record<DriveCategory, FolderRef>;
  const edits = view.folderEdits();
  for (const category of DRIVE_CATEGORIES) {
    const before = view.head?.folders[category] ?? empty!;
    const edit = edits.get(category);
    folders[category] = edit
      ? await editFolder(
          nodes,
          before,
          edit.add.map((entry) => ({ name: entry.name, cid: entry.cid, dagSize: entry.dag_size })),
          edit.remove,
        )
      : before;
  }
  const before = view.committedRange();
  const manifest = await editManifest(nodes, manifestView(view, context), view.touched(), before);
  const root = await encodeRoot(nodes, folders, manifest.file);
  return { root, folders, manifest };
}
