import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { unixSeconds } from '../clock.js';
import { PRIVATE_MODE, StagingArea, type StagedFile } from '../fs/staging.js';
import { mayHoldCookieText } from '../cookies/sniff.js';
import { COOKIE_SNIFF_BYTES } from '../cookies/netscape.js';
import { StationError, NotFound } from '../errors.js';
import type { UserRecord } from '../identity/user-files.js';
import { InFlight } from './in-flight.js';
import type { ManifestEntry, Provenance } from './manifest.js';
import { BlockBatch } from './db/block-batch.js';
import type { DriveDb } from './db/drive-db.js';
import type { EntryRecord, MediaRecord } from './db/records.js';
import { commitMedia, wrapperOfLink } from './db/commit.js';
import { throughCommit } from './db/commit-error.js';
import { DriveQueue } from './changes/queue.js';
import type { DriveOp, Outcome, Removal } from './changes/ops.js';
import { parseDrivePath, sanitiseFileName } from './names.js';
import { QuotaExceededError, quotaLimit } from './quota.js';
import { copyFromPublicDrive } from './copy.js';
import type { RemoteGateways } from './remote-copy.js';
import { existingFile, type DriveFileResult } from './placement.js';
import { DriveReader, type DriveReaderDeps } from './reader.js';
import { DRIVE_FILE_MODE, DriveWriter, type DriveTarget } from './writer.js';
import type { ContentStore } from './store/types.js';

export type { DriveFileResult };

/** What the drive asks of the content store. */
export type DriveStore = Pick<
  ContentStore,
  'kind' | 'addFile' | 'add' | 'cat' | 'stat' | 'getBlock' | 'putBlock' | 'pin' | 'release'
>;

export interface DriveServiceDeps extends DriveReaderDeps {
  db: DriveDb;
  store: DriveStore;
  logger: Logger;
  /**
   * Where uploads (drive and cookie intake alike) are received before they are accepted; on the same file
   * system as DATA_ROOT, so that accepting a file is a rename.
   */
  stagingDir: string;
  /** Told after each committed change of a drive (export.ts writes its manifest.json). */
  changed?: (user: Pick<UserRecord, 'email' | 'hex'>) => void;
}

const SWEEP_EVERY_MS = 3_600_000;

/**
 * Staged with the mode of a drive file, so that accepting it costs no `chmod`, unless its first bytes may be
 * cookie text (cookies/sniff.ts: whenever cookie intake could take it), which stays private from creation.
 */
const stagedMode = (head: Buffer) => (mayHoldCookieText(head) ? PRIVATE_MODE : DRIVE_FILE_MODE);

/** A file staging holds whole is not read again. */
const heldWhole = (staged: StagedFile) => staged.head.length === staged.size;
const importOptions = (staged: StagedFile, into: BlockBatch) =>
  heldWhole(staged) ? { pin: false, bytes: staged.head, into } : { pin: false, size: staged.size, into };

/**
 * Imports running at once, whatever the number of uploads: hashing is CPU-bound on a station's few cores,
 * so more at once would only cost memory. Uploads beyond wait with their bytes on disk, staged. Files read
 * from disk (larger than staging keeps in memory) hold buffers while they are chunked, so fewer of those run
 * at once: 16 of them put 50 concurrent 100 MiB uploads at 270 MiB of resident growth, 4 at 106–157 MiB.
 */
const IMPORT_CONCURRENCY = 16;
const STREAMED_IMPORT_CONCURRENCY = 4;

const outcomeValue = <T>(outcome: Outcome): T => {
  if (!outcome.ok) throw outcome.error;
  return outcome.value as T;
};

/**
 * Each user's drive: its truth in the drive index (db/), its files in `APP/uDRIVE/<Category>/`, published as
 * one tree in the content store. Uploads are received and imported concurrently; each drive's changes are
 * applied a batch at a time (DriveQueue), each batch one transaction (DriveWriter).
 */
export class DriveService extends DriveReader {
  readonly staging: StagingArea;
  private readonly inFlight = new InFlight();
  private readonly imports = pLimit(IMPORT_CONCURRENCY);
  private readonly streamedImports = pLimit(STREAMED_IMPORT_CONCURRENCY);
  private readonly queue: DriveQueue;
  private readonly writer: DriveWriter;
  private readonly targets = new Map<string, DriveTarget>();

  constructor(protected override readonly deps: DriveServiceDeps) {
    super(deps);
    // Every upload route checks the start of a file for cookies (docs/api-contract.md §7): keep what that
    // check reads.
    this.staging = new StagingArea(deps.stagingDir, COOKIE_SNIFF_BYTES, stagedMode);
    this.writer = new DriveWriter({ ...deps, staging: this.staging });
    this.queue = new DriveQueue((hex, ops) => this.writer.apply(this.targets.get(hex)!, ops));
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
   * Puts a staged upload into the user's drive and consumes it (moved in, or deleted on any failure). Its
   * import runs before it waits for its drive, so uploads of one user overlap.
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

  /** Waits for the changes in progress, then clears what they left to clear (writer.ts). */
  async drain(): Promise<void> {
    await this.inFlight.drain();
    await this.writer.close();
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
      await this.deps.ready(user);
      const name = sanitiseFileName(input.fileName);
      const { reads } = this.deps;
      const same = input.reuseSameContent ? reads.withSha256(user.hex, staged.sha256) : undefined;
      if (same) return existingFile(this.driveDir(user), reads.head(user.hex)?.root ?? null, same);
      if ((reads.head(user.hex)?.bytes ?? 0) + staged.size > this.deps.quotaBytes)
        throw new QuotaExceededError(this.deps.quotaBytes);
      const batch = new BlockBatch();
      const limit = heldWhole(staged) ? this.imports : this.streamedImports;
      const added = await limit(() => this.deps.store.addFile(staged.path, importOptions(staged, batch)));
      if (added.size !== staged.size)
        throw new StationError('STORE_SIZE_MISMATCH', {
          en: 'The content store did not receive the whole file.',
          fr: 'Le stockage de contenu n’a pas reçu le fichier entier.',
        });
      const placement = {
        staged,
        added,
        batch,
        name,
        source: input.source,
        reuseSameContent: input.reuseSameContent,
      };
      const result = outcomeValue<DriveFileResult>(await this.submit(user, { kind: 'add', placement }));
      if (!result.existing) this.told(user, 'file uploaded', result.entry, result.rootCid, input.source.kind);
      return result;
    } finally {
      await this.staging.discard(staged);
    }
  }

  /** See copy.ts. */
  copyFrom(user: UserRecord, ipfsLink: string, remote?: RemoteGateways): Promise<DriveFileResult> {
    return copyFromPublicDrive(this, this.deps.store, user, ipfsLink, remote);
  }

  /** Removes a file (`Images/a.jpg`, relative to APP/uDRIVE) from the drive, its folder and its media. */
  delete(user: UserRecord, filePath: string): Promise<Removal> {
    return this.track(this.deleteNow(user, filePath));
  }

  private async deleteNow(user: UserRecord, filePath: string): Promise<Removal> {
    const target = parseDrivePath(filePath);
    if (!target)
      throw new NotFound('FILE_NOT_FOUND', {
        en: 'There is no such file in the drive.',
        fr: 'Ce fichier n’existe pas dans le uDRIVE.',
      });
    await this.deps.ready(user);
    const removal = outcomeValue<Removal>(await this.submit(user, { kind: 'remove', path: target.path }));
    this.told(user, 'file deleted', removal.entry, removal.rootCid);
    return removal;
  }

  /**
   * Keeps the media made for a file (media/service.ts: its info, thumbnail and GIF in one folder, whose
   * blocks are in `batch`) while the file stays in the drive; false when it left the drive meanwhile.
   */
  async attachMedia(
    user: Pick<UserRecord, 'hex'>,
    entry: Pick<EntryRecord, 'path' | 'ipfs_link'>,
    record: MediaRecord,
    batch: BlockBatch,
  ): Promise<boolean> {
    const { db, clock } = this.deps;
    const wrapper = wrapperOfLink(entry.ipfs_link);
    const kept = await throughCommit(
      commitMedia(db, user.hex, entry.path, wrapper, record, batch, unixSeconds(clock)),
      this.staging.dir,
    );
    await db.root.flushed;
    return kept;
  }

  private submit(user: Pick<UserRecord, 'email' | 'hex'>, op: DriveOp): Promise<Outcome> {
    if (!this.targets.has(user.hex))
      this.targets.set(user.hex, {
        email: user.email,
        hex: user.hex,
        driveDir: this.driveDir(user),
        hints: new Map(),
      });
    return this.queue.submit(user.hex, op);
  }

  /** One `info` line per file placed or removed (the operator's story of the station), and the export. */
  private told(user: UserRecord, what: string, entry: ManifestEntry, root: string, via?: Provenance['kind']) {
    const { path, size, cid } = entry;
    this.deps.logger.info({ user: user.email, path, size, cid, root, ...(via ? { via } : {}) }, what);
    this.deps.changed?.(user);
  }
}
