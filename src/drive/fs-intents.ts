import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { tempPathFor } from '../fs/atomic.js';
import { within } from '../fs/paths.js';
import { holderIsGone } from '../process/identity.js';
import type { DriveDb } from './db/drive-db.js';
import { handled } from './db/commit-error.js';
import type { DriveReads } from './db/reads.js';
import type { FsIntent } from './db/records.js';
import type { ContentStore } from './store/types.js';
import { DRIVE_FILE_MODE } from './writer.js';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

export interface IntentDeps {
  db: DriveDb;
  reads: DriveReads;
  store: Pick<ContentStore, 'cat'>;
  /** A drive's folder (`APP/uDRIVE`) by its owner's key, or null for a user no longer on the station. */
  driveDirOf: (hex: string) => string | null;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/** Writes a drive file from the store (its staged upload is gone), atomically, readable. */
async function fromStore(store: Pick<ContentStore, 'cat'>, cid: string, final: string): Promise<void> {
  const temp = tempPathFor(final);
  await mkdir(dirname(final), { recursive: true });
  try {
    await pipeline(Readable.from(store.cat(cid)), createWriteStream(temp, { mode: DRIVE_FILE_MODE }));
    await rename(temp, final);
  } finally {
    await rm(temp, { force: true });
  }
}

async function settle(deps: IntentDeps, driveDir: string, hex: string, intent: FsIntent): Promise<void> {
  const final = within(driveDir, ...intent.path.split('/'));
  const listed = deps.reads.entryAt(hex, intent.path);
  if (intent.op === 'remove') {
    // A file of the same path added since is the drive's again: only an unlisted path is removed.
    if (!listed) await rm(final, { force: true });
    return;
  }
  if (!listed || (await exists(final))) return;
  if (intent.staged && (await exists(intent.staged))) {
    await mkdir(dirname(final), { recursive: true });
    await rename(intent.staged, final);
  } else await fromStore(deps.store, listed.cid, final);
}

/**
 * Finishes the file operations committed changes still owe the drives' folders (db/commit.ts records them
 * with the change): what a process killed between its commit and its rename left undone. Intents of a live
 * process (another PM2 worker at work) are left to it. Runs in the background at start.
 */
export async function settleIntents(deps: IntentDeps): Promise<number> {
  let settled = 0;
  for (const { key, value } of [...deps.db.intents.getRange()]) {
    if (!holderIsGone(value.holder)) continue;
    const [hex] = key;
    const driveDir = deps.driveDirOf(hex);
    try {
      if (driveDir) await settle(deps, driveDir, hex, value);
      await handled(deps.db.intents.remove(key));
      settled += 1;
    } catch (error) {
      deps.logger.warn(
        { err: error, path: value.path },
        'drive: an interrupted file operation is not finished',
      );
    }
  }
  if (settled > 0) deps.logger.info({ settled }, 'drive: file operations of interrupted changes finished');
  return settled;
}
