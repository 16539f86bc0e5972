import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import { within } from '../fs/paths.js';
import type { StagingArea } from '../fs/staging.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { categoryFor, fileTypeFor, mimeTypeFor, type DriveCategory } from './categories.js';
import { Journal } from './journal.js';
import {
  freeNames,
  sameContent,
  type DriveFileResult,
  type MovedFile,
  type Placement,
  type PlacementOutcome,
} from './placement.js';
import { readManifest, usedBytes, writeManifest, type Manifest, type ManifestEntry } from './manifest.js';
import type { DriveLinks } from './links.js';
import { buildDriveRoot, wrapFile } from './root.js';
import { QuotaExceededError } from './quota.js';
import type { ContentStore } from './store/types.js';

export type DriveStore = Pick<ContentStore, 'add' | 'cat' | 'stat' | 'putBlock' | 'pin' | 'unpin' | 'flush'>;

export type { DriveFileResult, Placement, PlacementOutcome };

const nameTaken = (name: string) =>
  new ConflictError('NAME_TAKEN', `Too many files named like ${name}; rename the file.`);
export { sameContent };

/** The changes of one drive, each called with the drive lock held (see DriveService, GroupCommits). */
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

  /**
   * Group commit: moves every staged, imported file of the batch into its folder under a free name and
   * publishes one new tree with one manifest write. A placement refused on its own (quota, name) fails alone;
   * a failed publication fails the whole batch and takes its files back out.
   */
  async placeAll(placements: readonly Placement[]): Promise<PlacementOutcome[]> {
    const manifest = await this.load();
    const outcomes: PlacementOutcome[] = [];
    const accepted: { index: number; moved: MovedFile }[] = [];
    // Quota and names are given in arrival order (a batch's numbered names do not depend on timing); the rest
    // of each file's preparation (its wrapper, its pin) runs for the whole batch at once.
    let bytes = usedBytes(manifest);
    const fitting: { index: number; placement: Placement; category: DriveCategory }[] = [];
    for (const [index, placement] of placements.entries()) {
      const same = placement.reuseSameContent ? sameContent(manifest, placement.staged.sha256) : undefined;
      if (same) outcomes[index] = { ok: true, result: this.existing(manifest, same) };
      else if (bytes + placement.staged.size > this.deps.quotaBytes)
        outcomes[index] = { ok: false, error: new QuotaExceededError(this.deps.quotaBytes) };
      else {
        bytes += placement.staged.size;
        fitting.push({ index, placement, category: categoryFor(placement.name) });
      }
    }
    const names = await freeNames(
      this.driveDir,
      manifest,
      fitting.map(({ placement, category }) => ({ category, name: placement.name })),
    );
    const named: { index: number; placement: Placement; category: DriveCategory; name: string }[] = [];
    for (const [i, file] of fitting.entries()) {
      const name = names[i];
      if (name) named.push({ ...file, name });
      else outcomes[file.index] = { ok: false, error: nameTaken(file.placement.name) };
    }
    await Promise.all(
      named.map(async ({ index, placement, category, name }) => {
        try {
          accepted.push({ index, moved: await this.prepare(placement, category, name) });
        } catch (error) {
          outcomes[index] = { ok: false, error };
        }
      }),
    );
    if (accepted.length === 0) return outcomes;
    accepted.sort((a, b) => a.index - b.index);
    const record = await this.journal().begin(accepted.map(({ moved }) => moved.record));
    try {
      await Promise.all(
        accepted.map(async ({ moved }) => {
          await this.deps.staging.moveTo(moved.staged, moved.record.final);
          await chmod(moved.record.final, 0o644); // staged private; published content is readable
        }),
      );
      manifest.files.push(...accepted.map(({ moved }) => moved.record.entry));
      const changed = [...new Set(accepted.map(({ moved }) => moved.record.entry.category))];
      const rootCid = await this.publish(manifest, changed);
      for (const { index, moved } of accepted) outcomes[index] = { ok: true, result: moved.result(rootCid) };
      // Files found again in the drive by reuseSameContent answer with the root that holds them.
      for (const outcome of outcomes)
        if (outcome?.ok && outcome.result.existing) outcome.result.rootCid = rootCid;
    } catch (error) {
      // The manifest was not written: the callers get an error, so the files must not appear later either.
      for (const { index, moved } of accepted) {
        await rm(moved.record.final, { force: true });
        await this.unpinQuietly(moved.wrapper);
        outcomes[index] = { ok: false, error };
      }
    } finally {
      await this.journal().end(record);
    }
    return outcomes;
  }

  /** Wraps and pins one named file of a batch; the caller moves it in and publishes. */
  private async prepare(placement: Placement, category: DriveCategory, name: string) {
    const { staged, added, name: requested, source } = placement;
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
    await mkdir(folder, { recursive: true });
    const record = { staged: staged.path, final: within(folder, name), entry };
    const filePath = `APP/uDRIVE/${entry.path}`;
    const result = (rootCid: string): DriveFileResult => ({
      entry,
      rootCid,
      targetDirectory: folder,
      filePath,
      renamed: name !== requested,
    });
    return { staged, wrapper, record, result } satisfies MovedFile;
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
    const rootCid = await this.publish(manifest, [entry.category]);
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
  private async publish(manifest: Manifest, changed?: readonly DriveCategory[]): Promise<string> {
    const previous = manifest.root_cid;
    const change = changed && {
      changed,
      previous: { folders: manifest.folders, folderDagSizes: manifest.folder_dag_sizes },
    };
    const root = await buildDriveRoot(this.deps.store, manifest, { links: this.deps.links(), change });
    if (root.rootCid !== previous) await this.deps.store.pin(root.rootCid);
    // The files' blocks, their wrappers and this tree, all durable before the manifest points at them.
    await this.deps.store.flush();
    manifest.root_cid = root.rootCid;
    manifest.folders = root.folders;
    manifest.folder_dag_sizes = root.folderDagSizes;
    manifest.updated_at = this.now();
    await writeManifest(join(this.driveDir, 'manifest.json'), manifest);
    if (previous && previous !== root.rootCid) await this.unpinQuietly(previous);
    return root.rootCid;
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
