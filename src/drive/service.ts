import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { PRIVATE_MODE, StagingArea, type StagedFile } from '../fs/staging.js';
import { mayHoldCookieText } from '../cookies/sniff.js';
import { COOKIE_SNIFF_BYTES } from '../cookies/netscape.js';
import { StationError, NotFound } from '../errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { releaseMedia } from './media/record.js';
import { wrapperOf } from './media/wrap.js';
import { GroupCommits } from './group-commit.js';
import { InFlight } from './in-flight.js';
import type { LockLease } from '../fs/file-lock.js';
import { DriveLocks } from './lock.js';
import type { Manifest, ManifestEntry, Provenance } from './manifest.js';
import { loadDrive } from './manifest-log.js';
import { Checkpoints } from './checkpoints.js';
import { parseDrivePath, sanitiseFileName } from './names.js';
import { QuotaExceededError, quotaLimit } from './quota.js';
import type { DriveObserver } from './blobs/index-sync.js';
import { DriveEvents } from './events.js';
import { copyFromPublicDrive } from './copy.js';
import { existingFile } from './placement.js';
import { DriveReader, type DriveReaderDeps } from './reader.js';
import {
  DRIVE_FILE_MODE,
  DriveWriter,
  type DriveFileResult,
  type DriveStore,
  type DriveWriterDeps,
} from './writer.js';

export type { DriveFileResult, DriveStore };

export interface DriveServiceDeps extends DriveReaderDeps {
  store: DriveStore;
  logger: Logger;
  /**
   * Where uploads (drive and cookie intake alike) are received before they are accepted; on the same file
   * system as DATA_ROOT, so that accepting a file is a rename.
   */
  stagingDir: string;
  /** Told of every file placed or removed (the blob index); its failures are logged, never the caller's. */
  observer?: DriveObserver;
  /** Drives kept locked between changes (the station: lock.ts, STATION_LEASE); absent, as the CLI runs. */
  lockLease?: LockLease;
}

const SWEEP_EVERY_MS = 3_600_000;

/**
 * Staged with the mode of a drive file, so that accepting it costs no `chmod`, unless its first bytes may be
 * cookie text (cookies/sniff.ts: whenever cookie intake could take it), which stays private from creation.
 */
const stagedMode = (head: Buffer) => (mayHoldCookieText(head) ? PRIVATE_MODE : DRIVE_FILE_MODE);

/** Not pinned alone (the wrapper pinned under the lock covers it); a file staging holds whole is not read again. */
const importOptions = (staged: StagedFile) =>
  staged.head.length === staged.size ? { pin: false, bytes: staged.head } : { pin: false, size: staged.size };

/**
 * Imports into the content store running at once, whatever the number of uploads: each holds a few MB of
 * blocks in flight (and as much garbage until the next collection), and hashing is CPU-bound on a station's
 * few cores, so more at once would only cost memory. Uploads beyond wait with their bytes on disk, staged.
 */
const IMPORT_CONCURRENCY = 4;

/**
 * Each user's drive: files in `APP/uDRIVE/<Category>/`, listed in `manifest.json`, published as one tree in
 * the content store. Uploads are received and imported concurrently; placing files and rewriting the
 * manifest happen one batch at a time per drive (GroupCommits under DriveLocks, across processes too).
 */
export class DriveService extends DriveReader {
  readonly staging: StagingArea;
  private readonly locks: DriveLocks;
  private readonly commits: GroupCommits;
  private readonly checkpoints: Checkpoints;
  private readonly events: DriveEvents;
  private readonly inFlight = new InFlight();
  private readonly imports = pLimit(IMPORT_CONCURRENCY);
  private readonly writerDeps: DriveWriterDeps;

  constructor(protected override readonly deps: DriveServiceDeps) {
    super(deps);
    // Every upload route checks the start of a file for cookies (docs/api-contract.md §7): keep what that
    // check reads.
    this.staging = new StagingArea(deps.stagingDir, COOKIE_SNIFF_BYTES, stagedMode);
    this.locks = new DriveLocks(deps.logger, deps.lockLease);
    this.commits = new GroupCommits(this.locks);
    this.checkpoints = new Checkpoints(this.locks, deps.logger, () => this.now());
    this.events = new DriveEvents(deps.logger, deps.observer);
    const { store, clock, logger, quotaBytes, links } = deps;
    this.writerDeps = {
      ...{ store, clock, logger, quotaBytes, links, staging: this.staging },
      legacyJournalsDone: new Set(),
      knownFolders: new Set(),
    };
  }

  /** Receives content for a known user: bounded by the room left in that user's quota. */
  async stageFor(user: UserRecord, content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    const room = this.deps.quotaBytes - (await this.usedBytes(user));
    return this.staging.receive(content, [quotaLimit(room)]);
  }

  /** Streams content straight into a user's drive. */
  async addStream(
    user: UserRecord,
    fileName: string,
    content: AsyncIterable<Uint8Array>,
    source: Provenance,
  ): Promise<DriveFileResult> {
    return this.commit(user, await this.stageFor(user, content), { fileName, source });
  }

  /**
   * Puts a staged upload into the user's drive and consumes it (moved in, or deleted on any failure).
   * Importing into the store happens before taking the drive lock, so uploads of one user overlap.
   */
  commit(
    user: UserRecord,
    staged: StagedFile,
    input: { fileName: string; source: Provenance; reuseSameContent?: boolean },
  ): Promise<DriveFileResult> {
    return this.track(this.commitNow(user, staged, input));
  }

  /** See InFlight: the app's onClose drains it before closing the stores. */
  track<T>(work: Promise<T>): Promise<T> {
    return this.inFlight.track(work);
  }

  /** Waits for the changes in progress, then folds every drive's log into its manifest.json. */
  async drain(): Promise<void> {
    await this.inFlight.drain();
    await this.checkpoints.all();
    await this.locks.close();
  }

  private async commitNow(
    user: UserRecord,
    staged: StagedFile,
    input: { fileName: string; source: Provenance; reuseSameContent?: boolean },
  ): Promise<DriveFileResult> {
    this.staging.sweepEvery(SWEEP_EVERY_MS, (error) =>
      this.deps.logger.warn({ err: error }, 'drive: staging sweep failed'),
    );
    try {
      const name = sanitiseFileName(input.fileName);
      const { state } = await this.recent(user);
      if (input.reuseSameContent && state.withSha256(staged.sha256)) {
        // Answered without the lock: only from the drive as it is on disk now (another process may have deleted it).
        const current = (await loadDrive(this.manifestPath(user), user, this.now())).state;
        const same = current.withSha256(staged.sha256);
        if (same) return existingFile(this.driveDir(user), current.manifest.root_cid, same);
      }
      if (state.usedBytes + staged.size > this.deps.quotaBytes)
        throw new QuotaExceededError(this.deps.quotaBytes);
      const added = await this.imports(() => this.deps.store.addFile(staged.path, importOptions(staged)));
      if (added.size !== staged.size)
        throw new StationError('STORE_SIZE_MISMATCH', 'The content store did not receive the whole file.');
      const driveDir = this.driveDir(user);
      const placement = {
        staged,
        added,
        name,
        source: input.source,
        reuseSameContent: input.reuseSameContent,
      };
      const result = await this.commits.place(driveDir, placement, (batch, tenure) =>
        this.writer(user, driveDir).placeAll(batch, tenure),
      );
      this.checkpoints.soon(this.manifestPath(user), user);
      if (!result.existing) await this.events.placed(user, result.entry, result.rootCid, input.source.kind);
      return result;
    } finally {
      await this.staging.discard(staged);
    }
  }

  /** See copy.ts. */
  copyFrom(user: UserRecord, ipfsLink: string): Promise<DriveFileResult> {
    return copyFromPublicDrive(this, this.deps.store, user, ipfsLink);
  }

  /** Removes a file (`Images/a.jpg`, relative to APP/uDRIVE) from the drive, the folder and the pins. */
  delete(user: UserRecord, filePath: string): Promise<{ entry: ManifestEntry; rootCid: string }> {
    return this.track(this.deleteNow(user, filePath));
  }

  private async deleteNow(
    user: UserRecord,
    filePath: string,
  ): Promise<{ entry: ManifestEntry; rootCid: string }> {
    const target = parseDrivePath(filePath);
    if (!target) throw new NotFound('FILE_NOT_FOUND', 'There is no such file in the drive.');
    const driveDir = this.driveDir(user);
    const removed = await this.locks.run(driveDir, async (tenure) => {
      const removal = await this.writer(user, driveDir).remove(target.path, tenure);
      // Its thumbnail, GIF and info document (media/record.ts) go with it.
      await releaseMedia(this.deps.store, driveDir, wrapperOf(removal.entry), this.deps.logger);
      return removal;
    });
    this.checkpoints.soon(this.manifestPath(user), user);
    await this.events.removed(user, removed.entry, removed.rootCid, removed.remaining);
    return { entry: removed.entry, rootCid: removed.rootCid };
  }

  /** Runs `critical` with the drive lock held and the manifest as it is then (see media/service.ts). */
  withDrive<T>(user: UserRecord, critical: (driveDir: string, manifest: Manifest) => Promise<T>): Promise<T> {
    const driveDir = this.driveDir(user);
    return this.locks.run(driveDir, async () => critical(driveDir, await this.list(user)));
  }

  private writer(user: UserRecord, driveDir: string): DriveWriter {
    return new DriveWriter(this.writerDeps, user, driveDir);
  }
}
