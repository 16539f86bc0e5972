import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/drive/manifest.js';
import { EmbeddedStore } from '../../src/drive/store/embedded.js';
import { addRecursiveCid } from '../drive/drive-fixture.js';
import { openDriveAt } from '../drive/drive-on-disk.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WRITER = join(import.meta.dirname, 'drive-writer.ts');
const EMAIL = 'burst@example.org';
const MiB = 1024 * 1024;

interface Acknowledged {
  path: string;
  cid: string;
}

/** A drive writer process (drive-writer.ts): its acknowledged uploads as they come, and how it ended. */
/** `hold`: the writer's last upload never ends (see drive-writer.ts), so the burst is always unfinished. */
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

/** The drive as a process opening the directories afresh sees it. */
async function reopen(root: string) {
  const { store, drive } = await openDriveAt(root);
  const user = { email: EMAIL, hex: 'ab'.repeat(32), npub: '', g1pub: null, gps: null };
  return { store, drive, driveDir: drive.driveDir(user), manifest: await drive.list(user) };
}

/** Every entry's file is in its folder with its size, and its content is in the store. */
async function everyEntryHasContent(store: EmbeddedStore, driveDir: string, manifest: Manifest) {
  for (const entry of manifest.files) {
    expect((await stat(join(driveDir, entry.category, entry.name))).size).toBe(entry.size);
    expect((await store.stat(entry.cid)).size).toBe(entry.size);
  }
}

describe('group commits across processes', () => {
  const children: ChildProcess[] = [];
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) await dir.cleanup();
  });

  it('keeps all of 200 concurrent uploads to one drive from two processes, with the root a full rebuild gives', async () => {
    const dir = await tempDir('group-commit-');
    dirs.push(dir);
    const writers = [writer(dir.path, 100, 4096, 'a'), writer(dir.path, 100, 4096, 'b')];
    children.push(...writers.map((w) => w.child));
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    const { store, driveDir, manifest } = await reopen(dir.path);
    try {
      expect(manifest.total_files).toBe(200);
      expect(new Set(manifest.files.map((f) => f.path)).size).toBe(200);
      const acknowledged = writers.flatMap((w) => w.acknowledged.map((a) => a.path));
      expect(acknowledged.sort()).toEqual(manifest.files.map((f) => f.path).sort());
      expect(manifest.root_cid).toBe(await addRecursiveCid(driveDir));
      await everyEntryHasContent(store, driveDir, manifest);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('loses no acknowledged upload to a SIGKILL in the middle of a burst, and lists nothing without content', async () => {
    const dir = await tempDir('group-commit-kill-');
    dirs.push(dir);
    const burst = writer(dir.path, 400, 16 * 1024, 'k', true);
    children.push(burst.child);
    await burst.atLeast(60);
    burst.child.kill('SIGKILL');
    await burst.exited;
    const acknowledged = [...burst.acknowledged];
    expect(acknowledged.length).toBeLessThan(400);
    const { store, driveDir, manifest } = await reopen(dir.path);
    try {
      const listed = new Map(manifest.files.map((f) => [f.path, f.cid]));
      for (const upload of acknowledged) expect(listed.get(upload.path)).toBe(upload.cid);
      await everyEntryHasContent(store, driveDir, manifest);
    } finally {
      await store.close();
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
    // Measured about 95 MiB (imports limited to 4 at once); 5 GB of uploads, 505 MiB before that limit.
    expect(growth).toBeLessThan(192 * MiB);
  }, 300_000);
});
