import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { localTimestamp, unixSeconds, type Clock } from '../clock.js';
import type { StagingArea } from '../fs/staging.js';
import { TryLater } from '../errors.js';
import { BlockBatch } from './db/block-batch.js';
import { clearIntents, commitChange, wrapperOfLink } from './db/commit.js';
import { throughCommit } from './db/commit-error.js';
import type { DriveDb } from './db/drive-db.js';
import type { DriveReads } from './db/reads.js';
import { DriveView } from './changes/drive-view.js';
import type { DriveOp, Outcome } from './changes/ops.js';
import { planChange, type Plan } from './changes/plan.js';
import type { DriveLinks } from './links.js';
import type { ContentStore } from './store/types.js';
import { changeNodes } from './tree/nodes.js';

/** Drive files are published content: readable (subject to the umask, as every file the station makes). */
export const DRIVE_FILE_MODE = 0o644;

/**
 * How often a change computed from a head another process changed meanwhile is computed again. Each process
 * changes a drive one batch at a time (DriveQueue), so only processes sharing DATA_ROOT (PM2 workers, the
 * CLI) meet here, and a batch loses to another only while that one commits.
 */
const ATTEMPTS = 20;

export interface DriveWriterDeps {
  db: DriveDb;
  reads: DriveReads;
  store: Pick<ContentStore, 'kind' | 'getBlock' | 'putBlock' | 'pin' | 'release'>;
  staging: StagingArea;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
  quotaBytes: number;
  links: () => DriveLinks;
}

/** The drive being changed: its owner and folder, and the numbering hints kept for it (placement.ts). */
export interface DriveTarget {
  email: string;
  hex: string;
  driveDir: string;
  hints: Map<string, number>;
}

/**
 * Applies a batch of one drive's changes: plans it on the committed head, commits it in one transaction
 * (db/commit.ts) if nobody changed the drive meanwhile (else plans again), waits for the commit to be on
 * disk, then moves the new files into their folders and removes the deleted ones.
 */
export class DriveWriter {
  /** Per drive, intents of this process's changes whose file operations are done: cleared by the next change. */
  private readonly done = new Map<string, string[]>();

  constructor(private readonly deps: DriveWriterDeps) {}

  /** Clears every done intent not cleared yet (on close). */
  async close(): Promise<void> {
    if (this.done.size === 0) return;
    const done = new Map(this.done);
    this.done.clear();
    await clearIntents(this.deps.db, done).catch(() => undefined);
  }

  async apply(target: DriveTarget, ops: readonly DriveOp[]): Promise<Outcome[]> {
    const { db, reads } = this.deps;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const view = new DriveView(reads, target.hex, reads.head(target.hex));
      const batch = new BlockBatch();
      const now = this.deps.clock.now();
      const plan = await planChange(view, ops, changeNodes(this.deps.store, batch), batch, {
        email: target.email,
        links: this.deps.links(),
        reads,
        driveDir: target.driveDir,
        quotaBytes: this.deps.quotaBytes,
        now: localTimestamp(now),
        at: unixSeconds({ now: () => now }),
        hints: target.hints,
      });
      if (!plan.commit) return plan.outcomes;
      // The intents of this drive's last change, done since: cleared by this one (one batch of a drive at a
      // time in this process: nothing else changes this list meanwhile).
      plan.commit.done = this.done.get(target.hex) ?? [];
      const committed = await throughCommit(commitChange(db, plan.commit), this.deps.staging.dir);
      if (!committed.ok) continue;
      await db.root.flushed;
      await this.deps.store.release(batch, true);
      // Kubo keeps what it pins: the new root and wrappers (the collector unpins them once their time is up).
      if (this.deps.store.kind === 'kubo')
        for (const cid of [
          ...plan.commit.handedOut,
          ...plan.commit.added.map((e) => wrapperOfLink(e.ipfs_link)),
        ])
          await this.deps.store
            .pin(cid)
            .catch((error: unknown) => this.deps.logger.warn({ err: error, cid }, 'drive: pin failed'));
      // Its own intents, once done, go with the drive's next change (or at close); if not, they stay for the
      // next start (fs-intents.ts).
      this.done.set(target.hex, (await this.materialize(plan)) ? committed.intentIds : []);
      return plan.outcomes;
    }
    throw new TryLater('DRIVE_BUSY', {
      en: 'The drive is busy with other changes; try again shortly.',
      fr: 'Le uDRIVE est occupé par d’autres changements ; réessayez dans un instant.',
    });
  }

  /**
   * The committed change's files in the drive's folders: new ones moved in (readable: published content), deleted
   * ones removed. False when one failed: its intent stays for the next start (fs-intents.ts).
   */
  private async materialize(plan: Plan): Promise<boolean> {
    const { staging, logger } = this.deps;
    const results = await Promise.allSettled([
      ...plan.moves.map(async ({ staged, final }) => {
        await staging.moveTo(staged, final, DRIVE_FILE_MODE).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await mkdir(dirname(final), { recursive: true });
          await staging.moveTo(staged, final, DRIVE_FILE_MODE);
        });
      }),
      ...plan.removals.map((path) => rm(path, { force: true })),
    ]);
    const failed = results.filter((r) => r.status === 'rejected');
    for (const failure of failed)
      logger.warn(
        { err: (failure as PromiseRejectedResult).reason },
        'drive: a file of a committed change was not moved',
      );
    return failed.length === 0;
  }
}
