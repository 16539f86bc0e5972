import type { Logger } from 'pino';
import type { UserRecord } from '../../identity/user-files.js';
import type { Manifest, ManifestEntry } from '../manifest.js';
import type { BlobIndex } from './blob-index.js';

/** Told of every change of any drive, whichever route or command made it (DriveService). */
export interface DriveObserver {
  placed(user: Pick<UserRecord, 'hex'>, entry: ManifestEntry): Promise<void>;
  /** `remaining`: the drive's files after the removal (another copy of the same bytes may still be there). */
  removed(
    user: Pick<UserRecord, 'hex'>,
    entry: ManifestEntry,
    remaining: readonly ManifestEntry[],
  ): Promise<void>;
}

/** `added_at` is a local time without zone, which Date.parse reads as local time too. */
function uploadedAt(entry: ManifestEntry): number {
  const ms = Date.parse(entry.added_at);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
}

function recordEntry(index: BlobIndex, pubkey: string, entry: ManifestEntry): Promise<void> {
  const facts = { cid: entry.cid, size: entry.size, type: entry.mime_type };
  return index.record(pubkey, entry.sha256, facts, {
    path: entry.path,
    link: entry.ipfs_link,
    uploaded: uploadedAt(entry),
  });
}

export function blobIndexObserver(index: BlobIndex): DriveObserver {
  return {
    placed: (user, entry) => recordEntry(index, user.hex, entry),
    async removed(user, entry, remaining) {
      const copy = remaining.find((f) => f.sha256 === entry.sha256);
      if (copy) await recordEntry(index, user.hex, copy);
      else await index.forget(user.hex, entry.sha256);
    },
  };
}

/**
 * Brings the index in line with the drives: entries a crash, an older version or a shell tool left out are
 * added, copies no longer in a drive are forgotten. Runs in the background at start, one drive at a time.
 */
export async function reconcileBlobIndex(
  index: BlobIndex,
  users: readonly Pick<UserRecord, 'email' | 'hex'>[],
  readDrive: (user: Pick<UserRecord, 'email' | 'hex'>) => Promise<Manifest>,
  logger: Logger,
): Promise<{ added: number; forgotten: number }> {
  let added = 0;
  let forgotten = 0;
  for (const user of users) {
    let manifest: Manifest;
    try {
      manifest = await readDrive(user);
    } catch (error) {
      logger.warn({ err: error, email: user.email }, 'blob index: drive unreadable, left as it was');
      continue;
    }
    const inDrive = new Map(manifest.files.map((f) => [f.sha256, f]));
    for (const entry of inDrive.values()) {
      const held = index.heldBy(user.hex, entry.sha256);
      if (held && manifest.files.some((f) => f.path === held.path)) continue;
      await recordEntry(index, user.hex, entry);
      added++;
    }
    for (const blob of index.owned(user.hex)) {
      if (inDrive.has(blob.sha256)) continue;
      await index.forget(user.hex, blob.sha256);
      forgotten++;
    }
  }
  return { added, forgotten };
}
