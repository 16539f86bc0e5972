import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { localTimestamp, type Clock } from '../clock.js';
import { within } from '../fs/paths.js';
import type { UserRecord } from '../identity/user-files.js';
import type { UserLookup } from '../identity/user-store.js';
import type { DriveReads } from './db/reads.js';
import type { DriveHead, EntryRecord } from './db/records.js';
import type { DriveLinks } from './links.js';
import { DriveListings } from './listing-cache.js';
import type { DriveListing } from './listing-schema.js';
import { emptyManifest, type Manifest, type ManifestEntry } from './manifest.js';
import { publishedManifest } from './published.js';

export interface DriveReaderDeps {
  users: Pick<UserLookup, 'dirFor'>;
  clock: Clock;
  quotaBytes: number;
  /** What published drives name as their API and gateway (links.ts); asked at each publication. */
  links: () => DriveLinks;
  reads: DriveReads;
  /** Resolves once the user's drive is in the index (a drive of an earlier version is imported first). */
  ready: (user: Pick<UserRecord, 'email' | 'hex'>) => Promise<void>;
}

type Owner = Pick<UserRecord, 'email' | 'hex'>;

/** A manifest entry as the index keeps it, without its place in the order. */
function manifestEntry(record: EntryRecord): ManifestEntry {
  const { seq: _seq, ...entry } = record;
  return entry;
}

/** The drive's list as manifest.json lays it out (export.ts writes it), from one snapshot of the index. */
export function manifestOf(
  owner: Owner,
  head: DriveHead | undefined,
  entries: EntryRecord[],
  at: string,
): Manifest {
  if (!head) return emptyManifest(owner, at);
  const folders: Manifest['folders'] = {};
  const folderDagSizes: Manifest['folder_dag_sizes'] = {};
  for (const [category, folder] of Object.entries(head.folders) as [
    keyof Manifest['folders'],
    DriveHead['folders'][keyof DriveHead['folders']],
  ][]) {
    folders[category] = folder.cid;
    folderDagSizes[category] = folder.dagSize;
  }
  return {
    version: 1,
    owner_email: head.email,
    owner_hex_pubkey: head.hex,
    root_cid: head.root,
    folders,
    folder_dag_sizes: folderDagSizes,
    total_size: head.bytes,
    total_files: head.files,
    updated_at: head.updated_at,
    files: entries.map(manifestEntry),
  };
}

/**
 * Reading a user's drive: where it is, what it lists and holds, from the index (db/reads.ts); every answer
 * comes from one snapshot of it, and nothing read is shared with writers. DriveService adds the writes.
 */
export class DriveReader {
  /** Each user's drive folder, by e-mail: a pure function of it, resolved (and checked) once. */
  private readonly dirs = new LRUCache<string, string>({ max: 4096 });
  /** Each drive's last listing, the next one's starting point (listing-cache.ts). */
  private readonly listings: DriveListings;

  constructor(protected readonly deps: DriveReaderDeps) {
    this.listings = new DriveListings(deps.reads);
  }

  get quotaBytes(): number {
    return this.deps.quotaBytes;
  }

  driveDir(user: Pick<UserRecord, 'email'>): string {
    let dir = this.dirs.get(user.email);
    if (!dir) this.dirs.set(user.email, (dir = within(this.deps.users.dirFor(user.email), 'APP', 'uDRIVE')));
    return dir;
  }

  /** Where the drive's exported list is written (export.ts). */
  protected manifestPath(user: Pick<UserRecord, 'email'>): string {
    return join(this.driveDir(user), 'manifest.json');
  }

  /** The drive's list, as manifest.json lays it out. */
  async list(user: Owner): Promise<Manifest> {
    await this.deps.ready(user);
    const { reads } = this.deps;
    return reads.snapshot((at) => {
      const head = reads.head(user.hex, at);
      return manifestOf(user, head, head ? reads.entries(user.hex, at) : [], this.now());
    });
  }

  /** Bytes the user's drive holds now (a change checks the quota again when it commits). */
  async usedBytes(user: Owner): Promise<number> {
    await this.deps.ready(user);
    return this.deps.reads.head(user.hex)?.bytes ?? 0;
  }

  /** The drive as `GET /api/drive` shows it: the public manifest and the current root. */
  async listing(user: Owner): Promise<DriveListing> {
    await this.deps.ready(user);
    const { reads } = this.deps;
    const links = this.deps.links();
    return reads.snapshot((at) => {
      const head = reads.head(user.hex, at);
      if (head) return this.listings.of(head, links, at);
      const manifest = emptyManifest(user, this.now());
      return {
        ...publishedManifest(manifest, links),
        root_cid: null,
        explorer_url: null,
        updated_at: manifest.updated_at,
      };
    });
  }

  protected now(): string {
    return localTimestamp(this.deps.clock.now());
  }
}
