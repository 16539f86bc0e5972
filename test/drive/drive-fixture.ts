import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.js';
import type { DriveLinks } from '../../src/drive/links.js';
import type { Manifest } from '../../src/drive/manifest.js';
import type { DriveService } from '../../src/drive/service.js';
import { openDriveServices, type DriveServices } from '../../src/drive/services.js';
import type { EmbeddedStore } from '../../src/drive/store/embedded.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import type { UserRecord } from '../../src/identity/user-files.js';
import { tempDir } from '../helpers/temp.js';
import { once_ } from './helpers.js';

/** What published drives name when the configuration is the default one (PORT 54321, IPFS_GATEWAY :8080). */
export const DEFAULT_LINKS: DriveLinks = { api: 'http://127.0.0.1:54321', gateway: 'http://127.0.0.1:8080' };

/** A published drive root's entries: the four folders, then the explorer and the public manifest (sorted by name, as Kubo does). */
export const ROOT_ENTRIES = ['Documents', 'Images', 'Music', 'Videos', '_index.html', 'manifest.json'];

export interface DriveFixture {
  root: string;
  /** The drive's clock: the wall clock, unless a test sets `frozen` (dates are part of published roots). */
  clock: { now(): number; frozen: number | null };
  services: DriveServices;
  store: EmbeddedStore;
  drive: DriveService;
  /** Another set of services on the same DATA_ROOT: what a second process (PM2 worker, the CLI) would be. */
  otherProcess: DriveService;
  user(email: string): UserRecord;
  addText(user: UserRecord, name: string, text: string): ReturnType<DriveService['addStream']>;
  close(): Promise<void>;
}

/**
 * The drive's services on `root` laid out as a station's DATA_ROOT (`ipfs-store/`, users in `nostr/`,
 * staging in `.drive-staging/`), as a station process opens them; `env` adds configuration variables.
 */
export async function openDriveAt(
  root: string,
  options: {
    quotaBytes?: number;
    env?: Record<string, string>;
    store?: ContentStore;
    clock?: { now(): number };
    links?: () => DriveLinks;
  } = {},
): Promise<DriveServices> {
  const config = await loadConfig({
    HOME: root,
    DATA_ROOT: root,
    TMP_DIR: join(root, 'tmp'),
    ...options.env,
  });
  return openDriveServices(
    { ...config, driveQuotaBytes: options.quotaBytes ?? config.driveQuotaBytes },
    {
      users: { dirFor: (email: string) => join(root, 'nostr', email) },
      clock: options.clock ?? { now: () => Date.now() },
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      links: options.links ?? (() => DEFAULT_LINKS),
      store: options.store,
    },
  );
}

export async function driveFixture(
  options: { quotaBytes?: number; env?: Record<string, string> } = {},
): Promise<DriveFixture> {
  const dir = await tempDir('drive-');
  const clock = {
    frozen: null as number | null,
    now: () => clock.frozen ?? Date.now(),
  };
  const quotaBytes = options.quotaBytes ?? 650 * 1024 * 1024;
  const services = await openDriveAt(dir.path, { quotaBytes, clock, env: options.env });
  const other = await openDriveAt(dir.path, { quotaBytes, clock, env: options.env });
  let n = 0;
  return {
    root: dir.path,
    clock,
    services,
    store: services.embedded!,
    drive: services.drive,
    otherProcess: other.drive,
    user: (email) => ({ email, hex: (++n).toString(16).padStart(64, '0'), npub: '', g1pub: null, gps: null }),
    addText: (user, name, text) =>
      services.drive.addStream(user, name, once_(Buffer.from(text)), { kind: 'cli' }),
    close: async () => {
      await other.close().catch(() => undefined);
      await services.close();
      await dir.cleanup();
    },
  };
}

/** A drive's list as the index has it, read by a service of its own (another process would read the same). */
export async function readDriveManifest(services: DriveServices, user: UserRecord): Promise<Manifest> {
  return services.drive.list(user);
}

/**
 * Every path under `dir` ([] when it does not exist). A folder can be made and removed while a walk runs
 * (ENOENT inside the walk): walked again.
 */
export async function filesIn(dir: string): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return (await readdir(dir, { recursive: true })).sort();
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing) throw error;
      if (attempt === 5 || !(await stat(dir).catch(() => null))) return [];
    }
  }
}
