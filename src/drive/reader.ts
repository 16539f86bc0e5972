import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { localTimestamp, type Clock } from '../clock.js';
import { within } from '../fs/paths.js';
import type { UserRecord } from '../identity/user-files.js';
import type { UserLookup } from '../identity/user-store.js';
import type { DriveLinks } from './links.js';
import type { DriveListing } from './listing-schema.js';
import type { Manifest } from './manifest.js';
import { readManifest, recentDrive, type LoadedDrive } from './manifest-log.js';
import { publishedManifest } from './published.js';

export interface DriveReaderDeps {
  users: Pick<UserLookup, 'dirFor'>;
  clock: Clock;
  quotaBytes: number;
  /** What published drives name as their API and gateway (links.ts); asked at each publication. */
  links: () => DriveLinks;
}

/**
 * Reading a user's drive: where it is, what it lists and holds. No lock is needed: changes are applied
 * whole (see manifest-log.ts). DriveService adds the writes.
 */
export class DriveReader {
  /**
   * Each user's drive folder and manifest path, by e-mail: a pure function of it, asked several times per
   * upload, and resolving it (checked against its root) each time was a few kilobytes of garbage per upload.
   */
  private readonly paths = new LRUCache<string, { drive: string; manifest: string }>({ max: 4096 });

  constructor(protected readonly deps: DriveReaderDeps) {}

  get quotaBytes(): number {
    return this.deps.quotaBytes;
  }

  driveDir(user: Pick<UserRecord, 'email'>): string {
    return this.pathsOf(user.email).drive;
  }

  /** The manifest as last changed (no lock needed: changes are applied whole, see manifest-log.ts). */
  list(user: Pick<UserRecord, 'email' | 'hex'>): Promise<Manifest> {
    return readManifest(this.manifestPath(user), user, this.now());
  }

  /** Bytes the user's drive holds, as last seen (the writer checks the quota again under the lock). */
  async usedBytes(user: Pick<UserRecord, 'email' | 'hex'>): Promise<number> {
    return (await this.recent(user)).state.usedBytes;
  }

  protected recent(user: Pick<UserRecord, 'email' | 'hex'>): Promise<LoadedDrive> {
    return recentDrive(this.manifestPath(user), user, this.now());
  }

  protected manifestPath(user: Pick<UserRecord, 'email'>): string {
    return this.pathsOf(user.email).manifest;
  }

  private pathsOf(email: string): { drive: string; manifest: string } {
    let paths = this.paths.get(email);
    if (!paths) {
      const drive = within(this.deps.users.dirFor(email), 'APP', 'uDRIVE');
      paths = { drive, manifest: join(drive, 'manifest.json') };
      this.paths.set(email, paths);
    }
    return paths;
  }

  protected now(): string {
    return localTimestamp(this.deps.clock.now());
  }

  /** The drive as `GET /api/drive` shows it: the public manifest and the current root. */
  async listing(user: Pick<UserRecord, 'email' | 'hex'>): Promise<DriveListing> {
    const manifest = await this.list(user);
    const links = this.deps.links();
    const root = manifest.root_cid;
    return {
      ...publishedManifest(manifest, links),
      root_cid: root,
      explorer_url: root ? `${links.gateway}/ipfs/${root}/_index.html` : null,
      updated_at: manifest.updated_at,
    };
  }
}
