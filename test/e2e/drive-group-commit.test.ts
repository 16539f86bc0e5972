import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/drive/manifest.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import { openDriveAt, readDriveManifest } from '../drive/drive-fixture.js';
import { collect, once_ } from '../drive/helpers.js';
import { expectPublishedAsOnDisk } from '../drive/published-tree.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WRITER = join(import.meta.dirname, 'drive-writer.ts');
const EMAIL = 'burst@example.org';
const MiB = 1024 * 1024;

interface Acknowledged {
  path: string;
  cid: string;
}

/**
 * A drive writer process (drive-writer.ts): its acknowledged uploads as they come, and how it ended. `hold`:
 * the writer's last upload never ends (see drive-writer.ts), so the burst is always unfinished.
 */
function writer(root: string, count: number, size: number, prefix: string, hold = false) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WRITER, root, EMAIL, String(count), String(size), prefix, ...(hold ? ['hold'] : [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const acknowledged: Acknowledged[] = [];
  let summary: { peakRssBytes: number; startRssBytes: number } | null = null;
  const listeners: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const value = JSON.parse(line) as Acknowledged & {
      done?: true;
      peakRssBytes: number;
      startRssBytes: number;
    };
    if (value.done) summary = value;
    else acknowledged.push(value);
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    acknowledged,
    summary: () => summary,
    exited,
    /** Resolves once `n` uploads are acknowledged. */
    atLeast: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => acknowledged.length >= n && resolve();
        listeners.push(check);
        check();
      }),
  };
}

const USER = { email: EMAIL, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The drive as a station process opening DATA_ROOT afresh sees it, once its start-up work is done: the file
 * operations that processes killed after a commit still owed the drive's folders are finished (fs-intents.ts).
 */
async function reopen(root: string) {
  const services = await openDriveAt(root, { quotaBytes: 100 * 1024 ** 3 });
  services.start(() => [USER]);
  await waitFor(() => services.db.intents.getKeysCount() === 0);
  const driveDir = services.drive.driveDir(USER);
  return { services, store: services.store, driveDir, manifest: await readDriveManifest(services, USER) };
}

/** Every entry's file is in its folder with its bytes, and its content is whole in the store. */
async function everyEntryHasContent(store: ContentStore, driveDir: string, manifest: Manifest) {
  for (const entry of manifest.files) {
    expect(sha256(await readFile(join(driveDir, entry.category, entry.name))), entry.path).toBe(entry.sha256);
    expect(await store.holds(entry.cid), entry.path).toBe(true);
    expect(sha256(await collect(store.cat(entry.ipfs_link))), entry.path).toBe(entry.sha256);
  }
}

describe('drive writer processes', () => {
  const children: ChildProcess[] = [];
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) await dir.cleanup();
  });

  it('keeps all of 200 concurrent uploads to one drive from two processes, published as they are on disk', async () => {
    const dir = await tempDir('group-commit-');
    dirs.push(dir);
    const writers = [writer(dir.path, 100, 4096, 'a'), writer(dir.path, 100, 4096, 'b')];
    children.push(...writers.map((w) => w.child));
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    const { services, store, driveDir, manifest } = await reopen(dir.path);
    try {
      expect(manifest.total_files).toBe(200);
      expect(new Set(manifest.files.map((f) => f.path)).size).toBe(200);
      const acknowledged = writers.flatMap((w) => w.acknowledged.map((a) => a.path));
      expect(acknowledged.sort()).toEqual(manifest.files.map((f) => f.path).sort());
      // 200 names: the folder is a HAMT shard, the one `ipfs add -r` makes of it at the drive's fanout.
      await expectPublishedAsOnDisk(store, manifest.root_cid!, driveDir, manifest);
      await everyEntryHasContent(store, driveDir, manifest);
      // The last writer to close wrote the export: the drive as the index has it.
      const exported = JSON.parse(await readFile(join(driveDir, 'manifest.json'), 'utf8')) as Manifest;
      expect(exported).toMatchObject({ root_cid: manifest.root_cid, total_files: 200 });
    } finally {
      await services.close();
    }
  }, 120_000);

  it('loses no answered upload to a SIGKILL in the middle of a burst, lists nothing without content, and goes on', async () => {
    const dir = await tempDir('group-commit-kill-');
    dirs.push(dir);
    const burst = writer(dir.path, 400, 16 * 1024, 'k', true);
    children.push(burst.child);
    await burst.atLeast(60);
    burst.child.kill('SIGKILL');
    await burst.exited;
    const acknowledged = [...burst.acknowledged];
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    expect(acknowledged.length).toBeLessThan(400);
    const { services, store, driveDir, manifest } = await reopen(dir.path);
    try {
      // Every answered upload is listed; a change committed but not yet answered may be listed too.
      const listed = new Map(manifest.files.map((f) => [f.path, f.cid]));
      for (const upload of acknowledged) expect(listed.get(upload.path), upload.path).toBe(upload.cid);
      expect(manifest.total_files).toBeLessThan(400);
      await everyEntryHasContent(store, driveDir, manifest);
      // And the drive goes on: an upload after the crash is listed beside them, published as on disk.
      const next = await services.drive.addStream(USER, 'after.txt', once_(Buffer.from('after')), {
        kind: 'cli',
      });
      const after = await services.drive.list(USER);
      expect(after.total_files).toBe(manifest.total_files + 1);
      expect(after.root_cid).toBe(next.rootCid);
      await expectPublishedAsOnDisk(store, next.rootCid, driveDir, after);
      await everyEntryHasContent(store, driveDir, after);
    } finally {
      await services.close();
    }
  }, 120_000);

  it('keeps memory bounded during 50 concurrent 100 MiB uploads to one drive', async () => {
    const dir = await tempDir('group-commit-memory-');
    dirs.push(dir);
    const uploads = writer(dir.path, 50, 100 * MiB, 'm');
    children.push(uploads.child);
    expect(await uploads.exited).toBe(0);
    const summary = uploads.summary();
    expect(uploads.acknowledged).toHaveLength(50);
    expect(summary).not.toBeNull();
    const growth = summary!.peakRssBytes - summary!.startRssBytes;
    console.info(`50 × 100 MiB at once: peak RSS growth ${(growth / MiB).toFixed(0)} MiB`);
    // Measured 106–157 MiB (imports limited to 4 at once, at e4354ed); 5 GB of uploads, 505 MiB before that limit.
    expect(growth).toBeLessThan(192 * MiB);
  }, 300_000);
});
