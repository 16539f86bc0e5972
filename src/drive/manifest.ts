import { readFile, stat } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { writeFileAtomic } from '../fs/atomic.js';
import { AppError } from '../http/errors.js';
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
  | { kind: 'drive'; ipfs_link: string; cid: string };

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

/** `APP/uDRIVE/manifest.json`: the list of the drive, and the CID of its published tree. */
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
  files: ManifestEntry[];
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

function isManifest(value: unknown): value is Manifest {
  const m = value as Manifest | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    Array.isArray(m.files) &&
    m.files.every((f) => typeof f?.path === 'string')
  );
}

/**
 * Parsed manifests of the drives in use, keyed by what changes with every write: the atomic rename gives the
 * file a new inode, so a manifest another process (a PM2 worker, the CLI) wrote is never mistaken for ours.
 * Entries are never modified in place, so copies share them.
 */
const parsed = new LRUCache<string, { version: string; manifest: Manifest }>({ max: 256 });

async function versionOf(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  return `${info.ino}:${info.mtimeNs}:${info.size}`;
}

function copyOf(manifest: Manifest): Manifest {
  return {
    ...manifest,
    folders: { ...manifest.folders },
    folder_dag_sizes: { ...manifest.folder_dag_sizes },
    files: [...manifest.files],
  };
}

export async function readManifest(
  path: string,
  owner: { email: string; hex: string },
  at: string,
): Promise<Manifest> {
  let version: string;
  try {
    version = await versionOf(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyManifest(owner, at);
    throw error;
  }
  const cached = parsed.get(path);
  if (cached?.version === version) return copyOf(cached.manifest);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyManifest(owner, at);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  // Written atomically, so a broken manifest was edited by hand: refuse rather than lose the list.
  if (!isManifest(value))
    throw new AppError(500, 'MANIFEST_UNREADABLE', 'The drive manifest is not readable.');
  const manifest = { ...emptyManifest(owner, at), ...value };
  // The version read before the text: if the file changed in between, the next read parses it again.
  parsed.set(path, { version, manifest: copyOf(manifest) });
  return manifest;
}

/** Several times faster than letting the file handle encode a megabyte of text (Buffer.from). */
const utf8 = new TextEncoder();

/** Sorted by path, totals recomputed, written with temp file + rename. */
export async function writeManifest(path: string, manifest: Manifest): Promise<void> {
  manifest.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  manifest.total_files = manifest.files.length;
  manifest.total_size = usedBytes(manifest);
  await writeFileAtomic(path, utf8.encode(`${JSON.stringify(manifest, null, 2)}\n`), { mode: 0o644 });
  parsed.set(path, { version: await versionOf(path), manifest: copyOf(manifest) });
}

export function usedBytes(manifest: Manifest): number {
  return manifest.files.reduce((sum, f) => sum + f.size, 0);
}
