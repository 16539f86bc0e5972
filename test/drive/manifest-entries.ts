import type { DriveTree } from '../../src/drive/drive-state.js';
import type { ManifestEntry } from '../../src/drive/manifest.js';

/** The time the fixtures below record. */
export const ENTRY_TIME = '2026-11-23T10:00:00.000';

/** An image's manifest entry at `path` (`Images/a.jpg`), with made-up CIDs derived from the path. */
export function imageEntry(path: string, size = 10, sha256 = path): ManifestEntry {
  const [category, name] = path.split('/') as ['Images', string];
  return {
    path,
    name,
    category,
    file_type: 'image',
    mime_type: 'image/jpeg',
    size,
    sha256,
    cid: `Qm${path}`,
    dag_size: size + 6,
    ipfs_link: `Qmw/${name}`,
    added_at: ENTRY_TIME,
    source: { kind: 'cli' },
  };
}

/** A published tree with root `root` and no folders: what a log line needs. */
export const treeOf = (root: string): DriveTree => ({
  root_cid: root,
  folders: {},
  folder_dag_sizes: {},
  updated_at: ENTRY_TIME,
});
