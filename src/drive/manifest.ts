import type { DriveCategory } from './categories.js';

/** Where a drive file came from. */
export type Provenance =
  | { kind: 'upload' }
  | { kind: 'cli' }
  /** Sent by a NOSTR client: Blossom's PUT /upload, or NIP-96. */
  | { kind: 'blossom' }
  | { kind: 'nip96' }
  /** Fetched by PUT /mirror (BUD-04) from this URL. */
  | { kind: 'mirror'; url: string }
  /** Copied from a public drive: the link the user gave and the CID it resolved to. */
  | { kind: 'drive'; ipfs_link: string; cid: string }
  /** Found in its folder when a drive of an earlier version was imported, in no list (migrate/). */
  | { kind: 'recovered' };

export interface ManifestEntry {
  /** Relative to `APP/uDRIVE`: `Images/a.jpg`. */
  path: string;
  name: string;
  category: DriveCategory;
  file_type: string;
  mime_type: string;
  size: number;
  sha256: string;
  cid: string;
  /** Cumulative DAG size of the file, the Tsize its folder links it with. */
  dag_size: number;
  /** `<cid>/<name>`: a directory holding just this file under its name (`ipfs add -w`), pinned. */
  ipfs_link: string;
  added_at: string;
  source: Provenance;
}

/**
 * `APP/uDRIVE/manifest.json`: the list of the drive and the CIDs of its published tree, as export.ts writes
 * it from the index (and as earlier versions kept it, with `log_seq`: migrate/legacy-drive.ts reads those).
 */
export interface Manifest {
  version: 1;
  owner_email: string;
  owner_hex_pubkey: string;
  /** The drive's root directory (the four category folders), as `ipfs add -r` computes it; null when empty. */
  root_cid: string | null;
  folders: Partial<Record<DriveCategory, string>>;
  /** Cumulative DAG size of each folder, so that an upload rebuilds only its own category's folder. */
  folder_dag_sizes: Partial<Record<DriveCategory, number>>;
  total_size: number;
  total_files: number;
  updated_at: string;
  /** In the order they were added. */
  files: ManifestEntry[];
  /** Earlier versions: the last change of their `.manifest.log` the file held. */
  log_seq?: number;
}

export function emptyManifest(owner: { email: string; hex: string }, at: string): Manifest {
  return {
    version: 1,
    owner_email: owner.email,
    owner_hex_pubkey: owner.hex,
    root_cid: null,
    folders: {},
    folder_dag_sizes: {},
    total_size: 0,
    total_files: 0,
    updated_at: at,
    files: [],
  };
}

export function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    Array.isArray(m.files) &&
    m.files.every((f) => typeof f?.path === 'string')
  );
}
