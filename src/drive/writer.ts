import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import { within } from '../fs/paths.js';
import type { StagedFile, StagingArea } from '../fs/staging.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { categoryFor, fileTypeFor, mimeTypeFor, type DriveCategory } from './categories.js';
import { Journal } from './journal.js';
import {
  readManifest,
  usedBytes,
  writeManifest,
  type Manifest,
  type ManifestEntry,
  type Provenance,
} from './manifest.js';
import { numberedName } from './names.js';
import type { DriveLinks } from './links.js';
import { buildDriveRoot, wrapFile } from './root.js';
import { QuotaExceededError } from './quota.js';
import type { AddResult, ContentStore } from './store/types.js';

export type DriveStore = Pick<ContentStore, 'add' | 'cat' | 'stat' | 'putBlock' | 'pin' | 'unpin'>;

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

export interface Placement {
  staged: StagedFile;
  added: AddResult;
  /** Sanitised name asked for. */
  name: string;
  source: Provenance;
  /** The same bytes already in the drive are the answer (Blossom, NIP-96: one file per SHA-256). */
  reuseSameContent?: boolean;
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

/** The changes of one drive, each called with the drive lock held (see DriveService). */
export class DriveWriter {
  constructor(
    private readonly deps: {
      store: DriveStore;
      staging: StagingArea;
      clock: Clock;
      logger: Logger;
      quotaBytes: number;
      /** Written into the published manifest: the explorer's API and gateway. */
      links: () => DriveLinks;
    },
    private readonly user: Pick<UserRecord, 'email' | 'hex'>,
    private readonly driveDir: string,
  ) {}

  /** Moves a staged, imported file into its folder under a free name and publishes the new tree. */
  async place({
    staged,
    added,
    name: requested,
    source,
    reuseSameContent,
  }: Placement): Promise<DriveFileResult> {
    const manifest = await this.load();
    const same = reuseSameContent ? sameContent(manifest, staged.sha256) : undefined;
    if (same) return this.existing(manifest, same);
    if (usedBytes(manifest) + staged.size > this.deps.quotaBytes)
      throw new QuotaExceededError(this.deps.quotaBytes);
    const category = categoryFor(requested);
    const name = await this.freeName(category, requested, manifest);
    const wrapper = await wrapFile(this.deps.store, { name, cid: added.cid, dagSize: added.dagSize });
    await this.deps.store.pin(wrapper);
    const entry: ManifestEntry = {
      path: `${category}/${name}`,
      name,
      category,
      file_type: fileTypeFor(category),
      mime_type: mimeTypeFor(name),
      size: staged.size,
      sha256: staged.sha256,
      cid: added.cid,
      dag_size: added.dagSize,
      ipfs_link: `${wrapper}/${name}`,
      added_at: this.now(),
      source,
    };
    const folder = within(this.driveDir, category);
    const final = within(folder, name);
    await mkdir(folder, { recursive: true });
    const record = await this.journal().begin({ staged: staged.path, final, entry });
    let rootCid: string;
    try {
      await this.deps.staging.moveTo(staged, final);
      await chmod(final, 0o644); // staged private; published content is readable
      manifest.files.push(entry);
      rootCid = await this.publish(manifest, category);
    } catch (error) {
      // The manifest was not written: the caller gets an error, so the file must not appear later either.
      await rm(final, { force: true });
      await this.unpinQuietly(wrapper);
      throw error;
    } finally {
      await this.journal().end(record);
    }
    const filePath = `APP/uDRIVE/${entry.path}`;
    return { entry, rootCid, targetDirectory: folder, filePath, renamed: name !== requested };
  }

  /** The answer for a file the drive already holds. */
  existing(manifest: Manifest, entry: ManifestEntry): DriveFileResult {
    const targetDirectory = within(this.driveDir, entry.category);
    const filePath = `APP/uDRIVE/${entry.path}`;
    return {
      entry,
      rootCid: manifest.root_cid ?? '',
      targetDirectory,
      filePath,
      renamed: false,
      existing: true,
    };
  }

  /** Takes a file out of the manifest, the folder and the pins; answers with the files that remain. */
  async remove(path: string): Promise<{ entry: ManifestEntry; rootCid: string; remaining: ManifestEntry[] }> {
    const manifest = await this.load();
    const entry = manifest.files.find((f) => f.path === path);
    if (!entry) throw new NotFoundError('FILE_NOT_FOUND', `There is no file ${path} in the drive.`);
    manifest.files = manifest.files.filter((f) => f !== entry);
    const rootCid = await this.publish(manifest, entry.category);
    await rm(within(this.driveDir, entry.category, entry.name), { force: true });
    // Only the wrapper was pinned for this file; other drives holding the same content pin their own.
    await this.unpinQuietly(entry.ipfs_link.split('/')[0]!);
    return { entry, rootCid, remaining: manifest.files };
  }

  /** The manifest, with uploads interrupted by a crash settled first (see Journal). */
  private async load(): Promise<Manifest> {
    const manifest = await readManifest(join(this.driveDir, 'manifest.json'), this.user, this.now());
    const known = (path: string) => manifest.files.some((f) => f.path === path);
    const recovered = await this.journal().replay(known);
    if (recovered.length > 0) {
      this.deps.logger.warn(
        { email: this.user.email, files: recovered.length },
        'drive: recovered interrupted uploads',
      );
      manifest.files.push(...recovered);
      await this.publish(manifest);
    }
    return manifest;
  }

  /**
   * Rebuilds the published tree (only the `changed` category's folder when given), pins it, writes the
   * manifest, then lets the previous tree go.
   */
  private async publish(manifest: Manifest, changed?: DriveCategory): Promise<string> {
    const previous = manifest.root_cid;
    const change = changed && {
      changed,
      previous: { folders: manifest.folders, folderDagSizes: manifest.folder_dag_sizes },
    };
    const root = await buildDriveRoot(this.deps.store, manifest, { links: this.deps.links(), change });
    if (root.rootCid !== previous) await this.deps.store.pin(root.rootCid);
    manifest.root_cid = root.rootCid;
    manifest.folders = root.folders;
    manifest.folder_dag_sizes = root.folderDagSizes;
    manifest.updated_at = this.now();
    await writeManifest(join(this.driveDir, 'manifest.json'), manifest);
    if (previous && previous !== root.rootCid) await this.unpinQuietly(previous);
    return root.rootCid;
  }

  private async freeName(category: DriveCategory, name: string, manifest: Manifest): Promise<string> {
    const taken = new Set(manifest.files.filter((f) => f.category === category).map((f) => f.name));
    for (let n = 0; n < MAX_NUMBERED_NAMES; n++) {
      const candidate = n === 0 ? name : numberedName(name, n);
      if (!taken.has(candidate) && !(await exists(within(this.driveDir, category, candidate))))
        return candidate;
    }
    throw new ConflictError('NAME_TAKEN', `Too many files named like ${name}; rename the file.`);
  }

  private async unpinQuietly(cid: string): Promise<void> {
    await this.deps.store.unpin(cid).catch((error: unknown) => {
      // The manifest is already right; a stale pin only keeps content a little longer.
      this.deps.logger.warn({ err: error, cid }, 'drive: unpin failed');
    });
  }

  private journal(): Journal {
    return new Journal(join(this.driveDir, '.journal'));
  }

  private now(): string {
    return localTimestamp(this.deps.clock.now());
  }
}
