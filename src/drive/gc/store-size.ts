import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DriveDb } from '../db/drive-db.js';
import { driveDbPath } from '../db/drive-db.js';

/** What the embedded store takes: its LMDB environment, and the files it holds by link. */
export interface StoreSize {
  /** Bytes of the environment's pages holding data (index, small blocks, tree nodes). */
  indexBytes: number;
  /** Bytes the environment's file takes on disk: its fullest moment (LMDB reuses, never returns, pages). */
  indexFileBytes: number;
  /** Bytes of the files held by link (`files/`): the same bytes as the drive files, not a copy of them. */
  heldBytes: number;
  /** Blocks of versions before 2026-11-25 (`blocks/`). */
  legacyBytes: number;
}

async function allocated(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await allocated(path);
    else total += ((await lstat(path).catch(() => null))?.blocks ?? 0) * 512;
  }
  return total;
}

export async function storeSize(db: DriveDb, storeDir: string): Promise<StoreSize> {
  return {
    indexBytes: db.usedBytes(),
    indexFileBytes: await allocated(driveDbPath(storeDir)),
    heldBytes: await allocated(join(storeDir, 'files')),
    legacyBytes: await allocated(join(storeDir, 'blocks')),
  };
}
