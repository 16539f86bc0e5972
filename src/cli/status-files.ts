import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { open } from 'lmdb';
import type { Config } from '../config/config.js';
import { driveDbPath } from '../drive/db/drive-db.js';
import { PaymentJournal } from '../economy/payments/journal.js';
import { diskSpace } from '../fs/disk-space.js';
import { normaliseEmail } from '../identity/email.js';
import { MAX_DBS as RELAY_MAX_DBS, STORE_SCHEMA } from '../relay/store/indexes.js';

/**
 * What `station status` reads under DATA_ROOT and TMP_DIR, read-only, whether the service runs or not: LMDB
 * readers never block its writer, even in another process (relay/store/export-events.ts does the same).
 */
export interface StationFiles {
  /** The embedded relay's store: its events (0 when there is none yet), or null when it cannot be read. */
  relayEvents: number | null;
  /** The embedded content store's folder (`DATA_ROOT/ipfs-store`) exists. */
  contentStore: boolean;
  /** User directories under `DATA_ROOT/nostr`, or null when there is no such folder. */
  users: number | null;
  /** Drives in the drive index (0 when there is none yet), or null when it cannot be read. */
  drives: number | null;
  /** The drive index exists (`DATA_ROOT/ipfs-store/lmdb`). */
  driveIndex: boolean;
  disk: { freeMb: number; low: boolean } | null;
  /** Like payments by status (`queued`, `sending`, `sent`, `failed`, …). */
  payments: Record<string, number>;
}

const exists = async (path: string) => (await stat(path).catch(() => null)) !== null;

/** One count from a read-only LMDB environment: 0 when there is none, null when it cannot be read. */
async function countIn(
  path: string,
  maxDbs: number,
  count: (root: ReturnType<typeof open>) => number,
): Promise<number | null> {
  if (!(await exists(path))) return 0;
  let root: ReturnType<typeof open> | null = null;
  try {
    root = open({ path, noSubdir: false, maxDbs, readOnly: true });
    return count(root);
  } catch {
    return null;
  } finally {
    await root?.close();
  }
}

async function userCount(dataRoot: string): Promise<number | null> {
  const entries = await readdir(join(dataRoot, 'nostr'), { withFileTypes: true }).catch(() => null);
  // The user store's rule (identity/user-store.ts): a directory named by its normalised e-mail.
  return entries && entries.filter((e) => e.isDirectory() && normaliseEmail(e.name) === e.name).length;
}

async function paymentCounts(tmpDir: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  // `all()` only reads: no `init()`, which would make the journal's folders.
  for await (const record of new PaymentJournal(join(tmpDir, 'payments')).all())
    counts[record.status] = (counts[record.status] ?? 0) + 1;
  return counts;
}

/** Free space where DATA_ROOT is, or will be: its nearest folder that exists. */
async function freeSpace(config: Omit<Config, 'wallets'>): Promise<StationFiles['disk']> {
  for (let dir = config.dataRoot; ; dir = dirname(dir)) {
    if (await exists(dir)) {
      const space = await diskSpace(dir, config.diskMinFreeBytes).catch(() => null);
      return space && { freeMb: Math.floor(space.freeBytes / 1048576), low: space.low };
    }
    if (dirname(dir) === dir) return null;
  }
}

export async function readStationFiles(config: Omit<Config, 'wallets'>): Promise<StationFiles> {
  const storeDir = join(config.dataRoot, 'ipfs-store');
  const [relayEvents, contentStore, users, drives, driveIndex, disk, payments] = await Promise.all([
    countIn(join(config.dataRoot, 'relay', 'store'), RELAY_MAX_DBS, (root) => {
      const meta = root.openDB<unknown, string>('meta', { encoding: 'msgpack' });
      if (meta.get('schema') !== STORE_SCHEMA) throw new Error('another layout');
      return Number(meta.get('count') ?? 0);
    }),
    exists(storeDir),
    userCount(config.dataRoot),
    countIn(driveDbPath(storeDir), 32, (root) => {
      const stats = root.openDB({ name: 'drives', encoding: 'msgpack' }).getStats() as {
        entryCount?: number;
      };
      return stats.entryCount ?? 0;
    }),
    exists(driveDbPath(storeDir)),
    freeSpace(config),
    paymentCounts(config.tmpDir),
  ]);
  return { relayEvents, contentStore, users, drives, driveIndex, disk, payments };
}
