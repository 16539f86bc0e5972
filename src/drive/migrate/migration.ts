import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { holderIsGone } from '../../process/identity.js';
import type { UserRecord } from '../../identity/user-files.js';
import { hasLegacyDrive, LEGACY_FILES, readLegacyDrive } from './legacy-drive.js';
import { importLegacyDrive, type ImportDeps } from './import-drive.js';
import { handled } from '../db/commit-error.js';

type Owner = Pick<UserRecord, 'email' | 'hex'>;

/** `meta` key set once every drive of an earlier version is in the index (the collector waits for it). */
export const MIGRATED_KEY = 'migration:done';

export interface MigrationDeps extends ImportDeps {
  driveDir: (user: Pick<UserRecord, 'email'>) => string;
  /** Writes the drive's manifest.json from the index (export.ts). */
  exported: (user: Owner) => Promise<void>;
  /** Writes it again if it does not name the drive's current root (export.ts `refresh`). */
  refreshed: (user: Owner) => Promise<void>;
  /** Once every drive is in: what earlier versions kept beside the drives goes (their blob index, pins). */
  retire: () => Promise<void>;
}

/**
 * Brings drives of earlier versions into the index: all of them in the background after start (one at a
 * time), and any one a request needs before that request goes on (`ready`), so the station answers meanwhile.
 * Each import is one transaction; the files of the earlier layout are removed only after it commits, so a
 * crash in between imports nothing twice (the next start finds the drive in the index and only tidies up).
 */
export class DriveMigration {
  private readonly running = new Map<string, Promise<void>>();
  private readonly done = new Set<string>();

  constructor(private readonly deps: MigrationDeps) {}

  /** Resolves once the user's drive is in the index, or known to have nothing to import. */
  ready(user: Owner): Promise<void> {
    if (this.done.has(user.hex)) return Promise.resolve();
    let running = this.running.get(user.hex);
    if (!running) {
      running = this.migrate(user).finally(() => this.running.delete(user.hex));
      this.running.set(user.hex, running);
    }
    return running;
  }

  /** Every user's drive, one after the other; then what earlier versions kept beside the drives is retired. */
  async all(users: readonly Owner[], signal?: AbortSignal): Promise<{ imported: number; failed: number }> {
    let imported = 0;
    let failed = 0;
    for (const user of users) {
      if (signal?.aborted) return { imported, failed };
      const before = this.deps.reads.head(user.hex) !== undefined;
      try {
        await this.ready(user);
        if (!before && this.deps.reads.head(user.hex)) imported += 1;
      } catch (error) {
        failed += 1;
        this.deps.logger.warn(
          { err: error, email: user.email },
          'drive import failed; retried at the next start',
        );
      }
    }
    if (failed === 0 && !signal?.aborted) {
      await this.deps.retire();
      await handled(this.deps.db.meta.put(MIGRATED_KEY, true));
    }
    return { imported, failed };
  }

  private async migrate(user: Owner): Promise<void> {
    const driveDir = this.deps.driveDir(user);
    if (this.deps.reads.head(user.hex)) {
      await this.tidy(driveDir);
      await this.deps.refreshed(user);
      this.done.add(user.hex);
      return;
    }
    if (!(await hasLegacyDrive(driveDir))) {
      this.done.add(user.hex);
      return;
    }
    const legacy = await readLegacyDrive(driveDir);
    const result = await importLegacyDrive(this.deps, user, driveDir, legacy);
    if (result.imported) {
      const { files, recovered, dropped } = result;
      const log = recovered + dropped > 0 || legacy.gap ? 'warn' : 'info';
      this.deps.logger[log](
        { email: user.email, files, recovered, dropped, repaired: legacy.gap },
        'drive imported into the index',
      );
      await this.deps.exported(user);
    }
    await this.tidy(driveDir);
    this.done.add(user.hex);
  }

  /** Removes the files of the earlier layout (the index holds the drive now). */
  private async tidy(driveDir: string): Promise<void> {
    await Promise.all(LEGACY_FILES.map((name) => rm(join(driveDir, name), { recursive: true, force: true })));
    // An earlier version's lock, unless a process of that version still holds it.
    const lock = join(driveDir, '.drive.lock');
    const holder = await readFile(join(lock, 'holder'), 'utf8').catch(() => null);
    if (holder !== null && holderIsGone(holder)) await rm(lock, { recursive: true, force: true });
  }
}
