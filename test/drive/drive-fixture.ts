import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { pino } from 'pino';
import { DriveService } from '../../src/drive/service.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import type { UserRecord } from '../../src/identity/user-files.js';
import { tempDir } from '../helpers/temp.js';
import { once_ } from './helpers.js';

export interface DriveFixture {
  root: string;
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
  const make = () =>
    new DriveService({
      store,
      users: { dirFor: (email: string) => join(dir.path, 'nostr', email) },
      clock: { now: () => Date.now() },
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      quotaBytes: options.quotaBytes ?? 650 * 1024 * 1024,
      stagingDir: join(dir.path, '.drive-staging'),
    });
  const drive = make();
  let n = 0;
  return {
    root: dir.path,
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
 * The root CID `ipfs add -r` gives the drive's folders as they are on disk (hidden files and the manifest
 * left out), computed by ipfs-unixfs-importer's own directory builder rather than the drive's.
 */
export async function addRecursiveCid(driveDir: string): Promise<string> {
  const candidates: ImportCandidate[] = [];
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

export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true }).catch(() => [] as string[])).sort();
}
