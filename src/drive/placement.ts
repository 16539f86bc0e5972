import { stat } from 'node:fs/promises';
import { within } from '../fs/paths.js';
import type { StagedFile } from '../fs/staging.js';
import { ConflictError } from '../http/errors.js';
import type { DriveCategory } from './categories.js';
import type { JournalRecord } from './journal.js';
import type { Manifest, ManifestEntry, Provenance } from './manifest.js';
import { numberedName } from './names.js';
import type { AddResult } from './store/types.js';

export interface DriveFileResult {
  entry: ManifestEntry;
  rootCid: string;
  /** Absolute category folder (the spec's `target_directory`). */
  targetDirectory: string;
  /** Relative to the user directory: `APP/uDRIVE/Images/a.jpg`. */
  filePath: string;
  /** The name was taken and a numbered one was used. */
  renamed: boolean;
  /** The drive already held these bytes and `reuseSameContent` was asked: nothing was written. */
  existing?: boolean;
}

/** A staged file, imported into the content store, to be placed in a drive. */
export interface Placement {
  staged: StagedFile;
  added: AddResult;
  /** Sanitised name asked for. */
  name: string;
  source: Provenance;
  /** The same bytes already in the drive are the answer (Blossom, NIP-96: one file per SHA-256). */
  reuseSameContent?: boolean;
}

export type PlacementOutcome = { ok: true; result: DriveFileResult } | { ok: false; error: unknown };

/** What the files of one batch already took: quota, and paths not yet in the manifest. */
export interface Batch {
  bytes: number;
  names: Set<string>;
}

/** A file of a batch, named, wrapped and pinned, waiting to be moved in and published. */
export interface MovedFile {
  staged: StagedFile;
  wrapper: string;
  record: JournalRecord;
  result: (rootCid: string) => DriveFileResult;
}

const MAX_NUMBERED_NAMES = 10_000;

export function sameContent(manifest: Manifest, sha256: string): ManifestEntry | undefined {
  return manifest.files.find((f) => f.sha256 === sha256);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The name asked for, or the first numbered one (`a (1).jpg`) that neither the manifest, the folder nor the
 * batch being placed has taken; the batch then takes it.
 */
export async function freeName(
  driveDir: string,
  wanted: { category: DriveCategory; name: string; manifest: Manifest; batch: Set<string> },
): Promise<string> {
  const { category, name, manifest, batch } = wanted;
  const taken = new Set(manifest.files.filter((f) => f.category === category).map((f) => f.name));
  for (let n = 0; n < MAX_NUMBERED_NAMES; n++) {
    const candidate = n === 0 ? name : numberedName(name, n);
    if (taken.has(candidate) || batch.has(`${category}/${candidate}`)) continue;
    if (await exists(within(driveDir, category, candidate))) continue;
    batch.add(`${category}/${candidate}`);
    return candidate;
  }
  throw new ConflictError('NAME_TAKEN', `Too many files named like ${name}; rename the file.`);
}
