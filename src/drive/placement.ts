import { stat } from 'node:fs/promises';
import { within } from '../fs/paths.js';
import type { DriveCategory } from './categories.js';
import type { ManifestEntry } from './manifest.js';
import { numberedName } from './names.js';

export interface DriveFileResult {
  entry: ManifestEntry;
  rootCid: string;
  /** Absolute category folder (`target_directory` in docs/api-contract.md §7). */
  targetDirectory: string;
  /** Relative to the user directory: `APP/uDRIVE/Images/a.jpg`. */
  filePath: string;
  /** The name was taken and a numbered one was used. */
  renamed: boolean;
  /** The drive already held these bytes and `reuseSameContent` was asked: nothing was written. */
  existing?: boolean;
}

const MAX_NUMBERED_NAMES = 10_000;

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A file of a batch to be named: its category and the (sanitised) name asked for. */
export interface Wanted {
  category: DriveCategory;
  name: string;
}

/**
 * For each file of a batch, in order, the name asked for or the first numbered one (`a (1).jpg`) that neither
 * the manifest, the folder on disk nor an earlier file of the batch has taken; null when none of
 * MAX_NUMBERED_NAMES is free. Names are chosen from the manifest first and the folder is checked for all of
 * them at once: a file on disk that the manifest does not list (left there by hand) is rare.
 */
export async function freeNames(
  driveDir: string,
  isListed: (path: string) => boolean,
  wanted: readonly Wanted[],
  /**
   * Per name asked for (`<category>/<name>`), a number below which every numbered name is listed: where the
   * search starts, so that the thousandth `photo.jpg` does not try the 999 names before it. Kept by the
   * caller between batches and cleared when a file is removed (DriveState.numberHints).
   */
  hints: Map<string, number> = new Map(),
): Promise<(string | null)[]> {
  const inBatch = new Set<string>();
  const pick = (want: Wanted, from: number): { name: string; next: number } | null => {
    const key = `${want.category}/${want.name}`;
    let unlisted: number | null = null;
    for (let n = Math.max(from, from === 0 ? (hints.get(key) ?? 0) : 0); n < MAX_NUMBERED_NAMES; n++) {
      const path = `${want.category}/${n === 0 ? want.name : numberedName(want.name, n)}`;
      if (isListed(path)) continue;
      unlisted ??= n;
      if (!inBatch.has(path)) {
        if (from === 0) hints.set(key, unlisted);
        return { name: path.slice(want.category.length + 1), next: n + 1 };
      }
    }
    return null;
  };
  const picks = wanted.map((want) => {
    const picked = pick(want, 0);
    if (picked) inBatch.add(`${want.category}/${picked.name}`);
    return picked;
  });
  const onDisk = await Promise.all(
    picks.map((picked, i) => (picked ? exists(within(driveDir, wanted[i]!.category, picked.name)) : false)),
  );
  const names: (string | null)[] = [];
  for (const [i, want] of wanted.entries()) {
    let picked = picks[i] ?? null;
    // Taken on disk: look further, one name at a time; the name it had stays reserved (the file is there).
    while (picked && onDisk[i] && (await exists(within(driveDir, want.category, picked.name)))) {
      picked = pick(want, picked.next);
      if (picked) inBatch.add(`${want.category}/${picked.name}`);
    }
    names.push(picked?.name ?? null);
  }
  return names;
}

/** The answer for a file the drive already holds (the same content uploaded again). */
export function existingFile(
  driveDir: string,
  rootCid: string | null,
  entry: ManifestEntry,
): DriveFileResult {
  return {
    entry,
    rootCid: rootCid ?? '',
    targetDirectory: within(driveDir, entry.category),
    filePath: `APP/uDRIVE/${entry.path}`,
    renamed: false,
    existing: true,
  };
}
