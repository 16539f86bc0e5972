import { readdir, readFile, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { writeFileAtomic } from '../../fs/atomic.js';
import { within } from '../../fs/paths.js';
import type { ContentStore } from '../store/types.js';

/**
 * `APP/uDRIVE/.media/<wrapper>.json`: which pinned media folder belongs to which drive file, so that
 * deleting the file lets its media go too. Hidden, like `.journal`: not a drive entry, not in the manifest,
 * not in the published tree.
 */
export interface MediaRecord {
  /** Relative to `APP/uDRIVE`. */
  path: string;
  bundle: string;
  info: string;
  thumbnail: string | null;
  gifanim: string | null;
}

const isCid = (value: string) => /^[A-Za-z0-9]{10,100}$/.test(value);

function recordPath(driveDir: string, wrapper: string): string {
  if (!isCid(wrapper)) throw new Error(`not a CID: ${wrapper}`);
  return within(driveDir, '.media', `${wrapper}.json`);
}

/** Call with the drive lock held, the file still in the manifest. */
export async function writeMediaRecord(driveDir: string, wrapper: string, record: MediaRecord) {
  await writeFileAtomic(recordPath(driveDir, wrapper), `${JSON.stringify(record)}\n`, { mode: 0o644 });
}

/** Unpins the media of a file taken out of the drive and forgets them; nothing recorded is not an error. */
export async function releaseMedia(
  store: Pick<ContentStore, 'unpin'>,
  driveDir: string,
  wrapper: string,
  logger: Logger,
): Promise<void> {
  const path = recordPath(driveDir, wrapper);
  let record: MediaRecord;
  try {
    record = JSON.parse(await readFile(path, 'utf8')) as MediaRecord;
  } catch {
    return;
  }
  if (typeof record.bundle === 'string' && isCid(record.bundle))
    await store.unpin(record.bundle).catch((error: unknown) => {
      // The file is gone already; a stale pin only keeps its thumbnails a little longer.
      logger.warn({ err: error, cid: record.bundle }, 'drive: media unpin failed');
    });
  await rm(path, { force: true });
}

/** The media folders recorded for a drive's files (what the store pins for them besides the files). */
export async function mediaBundles(driveDir: string): Promise<string[]> {
  const folder = within(driveDir, '.media');
  const names = await readdir(folder).catch(() => [] as string[]);
  const bundles: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const record = await readFile(within(folder, name), 'utf8')
      .then((text) => JSON.parse(text) as Partial<MediaRecord>)
      .catch(() => null);
    if (typeof record?.bundle === 'string') bundles.push(record.bundle);
  }
  return bundles;
}
