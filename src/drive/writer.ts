import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import { within } from '../fs/paths.js';
import type { StagedFile, StagingArea } from '../fs/staging.js';
import { Conflict, NotFound } from '../errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { categoryFor, fileTypeFor, mimeTypeFor, type DriveCategory } from './categories.js';
import {
  existingFile,
  freeNames,
  type DriveFileResult,
  type MovedFile,
  type Placement,
  type PlacementOutcome,
} from './placement.js';
import type { ManifestEntry } from './manifest.js';
import { noteMoving, type LoadedDrive } from './manifest-log.js';
import { loadSettled, publishChange, unpinQuietly, type DriveStore, type PublishContext } from './publish.js';
import { wrapFile } from './root.js';
import { QuotaExceededError } from './quota.js';
import type { Tenure } from './lock.js';

export type { DriveFileResult, DriveStore, Placement, PlacementOutcome };

/** Drive files are published content: readable (subject to the umask, as every file the station makes). */
export const DRIVE_FILE_MODE = 0o644;

const nameTaken = (name: string) =>
  new Conflict('NAME_TAKEN', `Too many files named like ${name}; rename the file.`);

/** What every drive's writer shares: made once by the service. */
export interface DriveWriterDeps extends Pick<PublishContext, 'store' | 'links' | 'legacyJournalsDone'> {
  staging: StagingArea;
  clock: Clock;
  logger: Logger;
  quotaBytes: number;
  /** Category folders this process made or found (a drive's first upload to one makes it). */
  knownFolders?: Pick<Set<string>, 'has' | 'add' | 'delete'>;
}

/** The changes of one drive, each called with the drive lock held (see DriveService, GroupCommits). */
export class DriveWriter {
  constructor(
    private readonly deps: DriveWriterDeps,
    private readonly user: Pick<UserRecord, 'email' | 'hex'>,
    private readonly driveDir: string,
  ) {}

  /**
   * Group commit: moves every staged, imported file of the batch into its folder under a free name and
   * publishes one new tree with one manifest write. A placement refused on its own (quota, name) fails alone;
   * a failed publication fails the whole batch and takes its files back out.
   */
  async placeAll(placements: readonly Placement[], tenure: Tenure): Promise<PlacementOutcome[]> {
    const drive = await this.load(tenure);
    const { state } = drive;
    const outcomes: PlacementOutcome[] = [];
    const accepted: { index: number; moved: MovedFile }[] = [];
    // Quota and names are given in arrival order (a batch's numbered names do not depend on timing); the rest
    // of each file's preparation (its wrapper, its pin) runs for the whole batch at once.
    let bytes = state.usedBytes;
    const fitting: { index: number; placement: Placement; category: DriveCategory }[] = [];
    for (const [index, placement] of placements.entries()) {
      const same = placement.reuseSameContent ? state.withSha256(placement.staged.sha256) : undefined;
      if (same)
        outcomes[index] = { ok: true, result: existingFile(this.driveDir, state.manifest.root_cid, same) };
      else if (bytes + placement.staged.size > this.deps.quotaBytes)
        outcomes[index] = { ok: false, error: new QuotaExceededError(this.deps.quotaBytes) };
      else {
        bytes += placement.staged.size;
        fitting.push({ index, placement, category: categoryFor(placement.name) });
      }
    }
    const names = await freeNames(
      this.driveDir,
      (path) => state.entry(path) !== undefined,
      fitting.map(({ placement, category }) => ({ category, name: placement.name })),
      state.numberHints,
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
    try {
      await noteMoving(
        this.manifestPath(),
        drive,
        accepted.map(({ moved }) => moved.record),
        tenure,
      );
      await Promise.all(accepted.map(({ moved }) => this.moveIn(moved.staged, moved.record.final)));
      const rootCid = await publishChange(this.publishing(tenure), drive, {
        add: accepted.map(({ moved }) => moved.record.entry),
      });
      for (const { index, moved } of accepted) outcomes[index] = { ok: true, result: moved.result(rootCid) };
      // Files found again in the drive by reuseSameContent answer with the root that holds them.
      for (const outcome of outcomes)
        if (outcome?.ok && outcome.result.existing) outcome.result.rootCid = rootCid;
    } catch (error) {
      // The manifest was not written: the callers get an error, so the files must not appear later either.
      for (const { index, moved } of accepted) {
        await rm(moved.record.final, { force: true });
        await unpinQuietly(this.deps, moved.wrapper);
        outcomes[index] = { ok: false, error };
      }
      // Nothing of the batch is left to settle (the note stays in the log, describing files now gone).
      drive.moving = null;
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
    const { knownFolders } = this.deps;
    if (!knownFolders?.has(folder)) {
      await mkdir(folder, { recursive: true });
      knownFolders?.add(folder);
    }
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

  /** Moves a staged file to its place, readable (published content); its folder is made again if it went away. */
  private async moveIn(staged: Pick<StagedFile, 'path' | 'mode'>, final: string): Promise<void> {
    const { staging } = this.deps;
    await staging.moveTo(staged, final, DRIVE_FILE_MODE).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      this.deps.knownFolders?.delete(dirname(final));
      await mkdir(dirname(final), { recursive: true });
      await staging.moveTo(staged, final, DRIVE_FILE_MODE);
    });
  }

  /** Takes a file out of the manifest, the folder and the pins; answers with the files that remain. */
  async remove(
    path: string,
    tenure: Tenure,
  ): Promise<{ entry: ManifestEntry; rootCid: string; remaining: ManifestEntry[] }> {
    const drive = await this.load(tenure);
    const entry = drive.state.entry(path);
    if (!entry) throw new NotFound('FILE_NOT_FOUND', `There is no file ${path} in the drive.`);
    const rootCid = await publishChange(this.publishing(tenure), drive, { remove: [path] });
    await rm(within(this.driveDir, entry.category, entry.name), { force: true });
    // Only the wrapper was pinned for this file; other drives holding the same content pin their own.
    await unpinQuietly(this.deps, entry.ipfs_link.split('/')[0]!);
    return { entry, rootCid, remaining: [...drive.state.manifest.files] };
  }

  /**
   * The drive, with uploads interrupted by a crash settled first (see journal.ts); as this process left it,
   * without asking the disk, when the lock was held without a break since (the same `tenure`).
   */
  private load(tenure: Tenure): Promise<LoadedDrive> {
    return loadSettled(this.publishing(tenure), this.user);
  }

  private publishing(tenure: Tenure): PublishContext {
    return {
      ...this.deps,
      driveDir: this.driveDir,
      manifestPath: this.manifestPath(),
      updatedAt: this.now(),
      tenure,
    };
  }

  private manifestPath(): string {
    return join(this.driveDir, 'manifest.json');
  }

  private now(): string {
    return localTimestamp(this.deps.clock.now());
  }
}
