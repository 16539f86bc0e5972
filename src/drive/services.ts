import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { UserRecord } from '../identity/user-files.js';
import type { UserLookup } from '../identity/user-store.js';
import { BlobService } from './blobs/service.js';
import { openDriveDb, type DriveDb } from './db/drive-db.js';
import { handled } from './db/commit-error.js';
import { DriveReads } from './db/reads.js';
import { ManifestExports } from './export.js';
import { settleIntents } from './fs-intents.js';
import { StoreCollector } from './gc/collector.js';
import { driveLinks, type DriveLinks } from './links.js';
import { MediaService } from './media/service.js';
import { DriveMigration } from './migrate/migration.js';
import { DriveService } from './service.js';
import { EmbeddedStore } from './store/embedded.js';
import type { ContentStore } from './store/types.js';

/** A staged file untouched this long at start-up belongs to no upload in progress. */
const STAGING_LEFTOVER_MS = 3_600_000;

/** Everything the drive is: built once per process (station.ts, the CLI, a test) and handed to the routes. */
export interface DriveServices {
  db: DriveDb;
  reads: DriveReads;
  store: ContentStore;
  /** The embedded store, null when IPFS_API names a Kubo node (or a caller gave its own store). */
  embedded: EmbeddedStore | null;
  drive: DriveService;
  blobs: BlobService;
  media: MediaService;
  migration: DriveMigration;
  collector: StoreCollector;
  exports: ManifestExports;
  /** Background work of a long-lived process: interrupted changes finished, older drives imported, the collector's timer. */
  start(users: () => readonly Pick<UserRecord, 'email' | 'hex'>[]): void;
  /** Waits for changes in progress, writes pending exports, closes the stores (reverse order of opening). */
  close(): Promise<void>;
}

export interface DriveServicesDeps {
  users: Pick<UserLookup, 'dirFor'> & { findByHex?(hex: string): Promise<{ email: string } | null> };
  clock: Clock;
  logger: Logger;
  /** Default: PUBLIC_URL, else PORT on loopback (links.ts). */
  links?: () => DriveLinks;
  /** A content store built by the caller (a test's Kubo double); default: Kubo at IPFS_API, else embedded. */
  store?: ContentStore;
  /** Once every drive is in the index, the station's older blob index is emptied (state/station-db.ts). */
  retireBlobIndex?: () => Promise<void>;
}

export async function openDriveServices(
  config: Omit<Config, 'wallets'>,
  deps: DriveServicesDeps,
): Promise<DriveServices> {
  const storeDir = join(config.dataRoot, 'ipfs-store');
  const db = await openDriveDb(storeDir);
  const reads = new DriveReads(db);
  const embedded = deps.store || config.ipfsApi ? null : await EmbeddedStore.open(storeDir, db);
  // kubo-rpc-client takes a third of a second to load: only a station on Kubo pays for it (bench/cli.ts).
  const kubo = async () =>
    new (await import('./store/kubo.js')).KuboStore(config.ipfsApi!, { logger: deps.logger });
  const store: ContentStore = deps.store ?? embedded ?? (await kubo());
  const links = deps.links ?? (() => driveLinks(config));
  const { clock, logger } = deps;
  const driveDir = (user: Pick<UserRecord, 'email'>) => drive.driveDir(user);
  const exports = new ManifestExports({ reads, driveDir, clock, logger });
  const migration = new DriveMigration({
    db,
    reads,
    store,
    links,
    logger,
    now: () => clock.now(),
    driveDir,
    exported: (user) => exports.writeNow(user),
    refreshed: (user) => exports.refresh(user),
    retire: async () => {
      await deps.retireBlobIndex?.();
      // Pins of earlier versions: the drives keep what they pinned now (db/commit.ts `pinRefs`).
      if (embedded) await handled(db.pins.clearAsync());
    },
  });
  const drive: DriveService = new DriveService({
    db,
    reads,
    store,
    users: deps.users,
    clock,
    logger,
    links,
    quotaBytes: config.driveQuotaBytes,
    stagingDir: join(config.dataRoot, '.drive-staging'),
    ready: (user) => migration.ready(user),
    changed: (user) => exports.soon(user),
  });
  const blobs = new BlobService({ drive, index: reads, links });
  const media = new MediaService({
    config: config.media,
    store,
    stagingDir: drive.staging.dir,
    logger,
    attach: (user, entry, record, batch) => drive.attachMedia(user, entry, record, batch),
  });
  const collector = new StoreCollector({
    db,
    blocks: embedded?.blocks,
    kubo: embedded ? undefined : store,
    storeDir,
    clock,
    keepMs: config.store.keepRootsSeconds * 1000,
    logger,
  });
  const stops: (() => void)[] = [];
  const background = new AbortController();
  return {
    db,
    reads,
    store,
    embedded,
    drive,
    blobs,
    media,
    migration,
    collector,
    exports,
    start(users) {
      void (async () => {
        // Leftovers of a process that stopped mid-upload (cookie intake stages here too): private, but useless.
        await drive.staging.sweep(STAGING_LEFTOVER_MS);
        const driveDirOf = (hex: string) => {
          const user = users().find((u) => u.hex === hex);
          return user ? drive.driveDir(user) : null;
        };
        await settleIntents({ db, reads, store, driveDirOf, logger });
        const imported = await migration.all(users(), background.signal);
        if (imported.imported > 0)
          logger.info(imported, 'drives of an earlier version imported into the index');
      })().catch((error: unknown) => logger.warn({ err: error }, 'drive: start-up work failed'));
      stops.push(collector.every(config.store.gcIntervalSeconds * 1000));
    },
    async close() {
      background.abort();
      for (const stop of stops) stop();
      await drive.drain();
      // Uploads cut by the stop (station.ts) leave nothing staged for the next start to find.
      await drive.staging.removeOwn();
      await exports.all();
      media.close();
      await store.close();
      await db.close();
    },
  };
}
