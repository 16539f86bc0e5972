import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { pino } from 'pino';
import { loadExplorer } from '../../src/drive/explorer.js';
import type { DriveLinks } from '../../src/drive/links.js';
import type { Manifest } from '../../src/drive/manifest.js';
import { readManifest } from '../../src/drive/manifest-log.js';
import { publishedManifestBytes } from '../../src/drive/published.js';
import { DriveService } from '../../src/drive/service.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
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
  store: EmbeddedStore;
  drive: DriveService;
  /** Another service on the same directories: what a second process (PM2 worker, the CLI) would be. */
  otherProcess: DriveService;
  user(email: string): UserRecord;
  addText(user: UserRecord, name: string, text: string): ReturnType<DriveService['addStream']>;
  close(): Promise<void>;
}

export async function driveFixture(options: { quotaBytes?: number } = {}): Promise<DriveFixture> {
  const dir = await tempDir('drive-');
  const store = await EmbeddedStore.open(join(dir.path, 'ipfs'));
  const clock = {
    frozen: null as number | null,
    now: () => clock.frozen ?? Date.now(),
  };
  const make = () =>
    new DriveService({
      store,
      users: { dirFor: (email: string) => join(dir.path, 'nostr', email) },
      clock,
      links: () => DEFAULT_LINKS,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      quotaBytes: options.quotaBytes ?? 650 * 1024 * 1024,
      stagingDir: join(dir.path, '.drive-staging'),
    });
  const drive = make();
  let n = 0;
  return {
    root: dir.path,
    clock,
    store,
    drive,
    otherProcess: make(),
    user: (email) => ({ email, hex: (++n).toString(16).padStart(64, '0'), npub: '', g1pub: null, gps: null }),
    addText: (user, name, text) => drive.addStream(user, name, once_(Buffer.from(text)), { kind: 'cli' }),
    close: async () => {
      await store.close();
      await dir.cleanup();
    },
  };
}

/**
 * A drive's manifest as the service sees it: `manifest.json` plus the changes logged since its last
 * checkpoint (see src/drive/manifest-log.ts), which the file on disk trails while changes keep coming.
 */
export function readDriveManifest(driveDir: string): Promise<Manifest> {
  return readManifest(join(driveDir, 'manifest.json'), { email: '', hex: '' }, '');
}

/**
 * The root CID `ipfs add -r` gives a folder holding the drive's folders as they are on disk (hidden files
 * left out), the public manifest derived from the one on disk, and the built explorer, as `manifest.json`
 * and `_index.html`: computed by ipfs-unixfs-importer's own directory builder rather than the drive's.
 */
export async function addRecursiveCid(driveDir: string, links: DriveLinks = DEFAULT_LINKS): Promise<string> {
  const manifest = await readDriveManifest(driveDir);
  const candidates: ImportCandidate[] = [
    { path: 'uDRIVE/_index.html', content: (await loadExplorer()).bytes },
    { path: 'uDRIVE/manifest.json', content: publishedManifestBytes(manifest, links) },
  ];
  for (const category of ['Documents', 'Images', 'Music', 'Videos']) {
    candidates.push({ path: `uDRIVE/${category}` });
    const names = (await readdir(join(driveDir, category)).catch(() => [] as string[])).filter(
      (name) => !name.startsWith('.'),
    );
    for (const name of names)
      candidates.push({
        path: `uDRIVE/${category}/${name}`,
        content: createReadStream(join(driveDir, category, name)),
      });
  }
  const sink = { put: async (cid: CID) => cid };
  let last = '';
  for await (const entry of importer(candidates, sink, { profile: 'unixfs-v0-2015' })) {
    if (entry.path === 'uDRIVE') last = entry.cid.toString();
  }
  return last;
}

/**
 * Every path under `dir` ([] when it does not exist). The drive's lock is given back just after an upload
 * answers, so a walk can find its directory and then lose it (ENOENT inside the walk): walked again.
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
