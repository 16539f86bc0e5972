import type { Logger } from 'pino';
import type { UserRecord } from '../identity/user-files.js';
import type { DriveObserver } from './blobs/index-sync.js';
import type { ManifestEntry, Provenance } from './manifest.js';

/**
 * What the drive tells once a change is made: one `info` line per file placed or removed (the operator's
 * story of the station: who, which file, its size and CID, the new root), and the observer (the blob index),
 * whose failures are logged, never the caller's: the drive is already right, and the index is reconciled
 * with it at the next start.
 */
export class DriveEvents {
  constructor(
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
    private readonly observer?: DriveObserver,
  ) {}

  async placed(user: UserRecord, entry: ManifestEntry, root: string, via: Provenance['kind']): Promise<void> {
    const { path, size, cid } = entry;
    this.logger.info({ user: user.email, path, size, cid, root, via }, 'file uploaded');
    await this.tell((observer) => observer.placed(user, entry));
  }

  async removed(
    user: UserRecord,
    entry: ManifestEntry,
    root: string,
    remaining: ManifestEntry[],
  ): Promise<void> {
    const { path, size, cid } = entry;
    this.logger.info({ user: user.email, path, size, cid, root }, 'file deleted');
    await this.tell((observer) => observer.removed(user, entry, remaining));
  }

  private async tell(change: (observer: DriveObserver) => Promise<void>): Promise<void> {
    if (!this.observer) return;
    await change(this.observer).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'drive: blob index not updated'),
    );
  }
}
