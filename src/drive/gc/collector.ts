import { CID } from 'multiformats/cid';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { DriveDb } from '../db/drive-db.js';
import { handled } from '../db/commit-error.js';
import { MIGRATED_KEY } from '../migrate/migration.js';
import type { BlockStorage } from '../store/block-storage.js';
import type { ContentStore } from '../store/types.js';
import { releaseLease, takeLease } from './lease.js';
import { markLive } from './mark.js';
import { sweepStore, type SweepReport } from './sweep.js';

/** A collection that has not given its lease back after this long is taken for dead. */
const LEASE_MS = 30 * 60_000;

export interface CollectionReport extends SweepReport {
  /** Why nothing was collected, when nothing was. */
  skipped: 'busy' | 'migrating' | null;
  live: number;
  rootsExpired: number;
  unpinned: number;
  ms: number;
}

export interface CollectorDeps {
  db: DriveDb;
  /** The embedded store's blocks (absent with Kubo: Kubo collects its own blocks). */
  blocks?: BlockStorage;
  /** Kubo: superseded roots are unpinned there once their time is up. */
  kubo?: Pick<ContentStore, 'unpin'>;
  storeDir: string;
  clock: Clock;
  /** STORE_KEEP_ROOTS_S in milliseconds: how long a CID handed to a client stays readable. */
  keepMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
}

/**
 * The store's garbage collection (`ipfs repo gc` for the embedded store): what no drive's current root, no
 * drive file or media record (their wrappers and folders), no explicit pin and no CID handed out within the
 * last STORE_KEEP_ROOTS_S reaches is removed. Safe beside live uploads (gc/mark.ts) and across processes (one
 * at a time, gc/lease.ts). It waits until every drive of an earlier version is imported (migrate/), whose
 * blocks their old pins still keep.
 */
export class StoreCollector {
  constructor(private readonly deps: CollectorDeps) {}

  async collect(): Promise<CollectionReport> {
    const { db, clock } = this.deps;
    const started = clock.now();
    const empty = {
      blocks: 0,
      bytes: 0,
      leaves: 0,
      files: 0,
      legacyBlocks: 0,
      live: 0,
      rootsExpired: 0,
      unpinned: 0,
    };
    if (db.meta.get(MIGRATED_KEY) !== true) return { ...empty, skipped: 'migrating', ms: 0 };
    if (!(await takeLease(db, started, LEASE_MS))) return { ...empty, skipped: 'busy', ms: 0 };
    try {
      const keptSince = Math.floor((started - this.deps.keepMs) / 1000);
      const current = new Set<string>();
      for (const { value } of db.drives.getRange()) if (value.root) current.add(value.root);
      let report: SweepReport & { live: number } = { ...empty };
      const { blocks } = this.deps;
      if (blocks) {
        const marked = await markLive(db, keptSince, async (cid) => blocks.bytes(CID.parse(cid)));
        report = {
          ...(await sweepStore(db, this.deps.storeDir, marked)),
          live: marked.live.size,
        };
      }
      const expired = [...db.roots.getRange()].filter(
        ({ key, value }) => value < keptSince && !current.has(key),
      );
      let unpinned = 0;
      for (const { key } of expired) {
        // With Kubo, what was handed out stays pinned there until its time is up (db/commit.ts records it).
        if (this.deps.kubo && !db.pinRefs.doesExist(key) && !current.has(key)) {
          const done = await this.deps.kubo.unpin(key).then(
            () => true,
            () => false,
          );
          if (!done) continue;
          unpinned += 1;
        }
        await handled(db.roots.remove(key));
      }
      const result = {
        ...report,
        rootsExpired: expired.length,
        unpinned,
        skipped: null,
        ms: clock.now() - started,
      };
      this.deps.logger.info(result, 'store collection done');
      return result;
    } finally {
      await releaseLease(db);
    }
  }

  /** Collects every `intervalMs` (unref'd: it never keeps the process alive); a failure is logged. */
  every(intervalMs: number): () => void {
    if (intervalMs <= 0) return () => undefined;
    let running: Promise<unknown> | null = null;
    const timer = setInterval(() => {
      running ??= this.collect()
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'store collection failed'))
        .finally(() => (running = null));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
