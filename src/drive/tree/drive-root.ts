import { DRIVE_CATEGORIES, type DriveCategory } from '../categories.js';
import type { FolderRef, NodeRef } from '../db/records.js';
import { loadExplorer } from '../explorer.js';
import { EXPLORER_NAME, PUBLISHED_MANIFEST_NAME } from '../published-names.js';
import { encodeDirectory } from '../store/dag.js';
import { leafBlock } from '../store/file-leaves.js';
import { cidV0Of, type NodeStore } from './nodes.js';

/** The explorer's one leaf (the built file is under 256 KiB), framed once per process. */
let explorerLeaf: Promise<{ cid: string; bytes: Uint8Array }> | null = null;

async function explorerBlock(): Promise<{ cid: string; bytes: Uint8Array }> {
  explorerLeaf ??= loadExplorer().then((explorer) => {
    const bytes = leafBlock(explorer.bytes);
    const cid = cidV0Of(bytes);
    // `ipfs add` of the file gives the same leaf when it fits in one chunk (scripts/build-pages.mjs checks it).
    if (cid !== explorer.cid) throw new Error('The built explorer is not a single Kubo leaf.');
    return { cid, bytes };
  });
  explorerLeaf.catch(() => (explorerLeaf = null));
  return explorerLeaf;
}

/**
 * A drive's published root: the four category folders (empty ones included), `_index.html` (the explorer,
 * the same bytes in every drive) and `manifest.json`, as one plain directory. Every change stores the
 * explorer's leaf with its nodes (a block already held is only marked in use: db/commit.ts).
 */
export async function encodeRoot(
  store: NodeStore,
  folders: Record<DriveCategory, FolderRef>,
  manifest: NodeRef,
): Promise<string> {
  const explorer = await explorerBlock();
  await store.putKnown(explorer.cid, explorer.bytes);
  const root = await encodeDirectory([
    ...DRIVE_CATEGORIES.map((name) => ({ name, cid: folders[name].cid, dagSize: folders[name].dagSize })),
    { name: EXPLORER_NAME, cid: explorer.cid, dagSize: explorer.bytes.length },
    { name: PUBLISHED_MANIFEST_NAME, cid: manifest.cid, dagSize: manifest.dagSize },
  ]);
  await store.putKnown(root.cid, root.bytes);
  return root.cid;
}
