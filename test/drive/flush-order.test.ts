import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDriveAt } from './drive-on-disk.js';
import { once_ } from './helpers.js';
import { openDescriptorsOn } from '../helpers/open-files.js';
import { tempDir } from '../helpers/temp.js';
import { readDriveManifest } from './drive-fixture.js';

describe('a drive publication and the content store’s flush', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
  });

  /** A drive service and its embedded store on a temp folder, closed and removed after the test. */
  async function openDrive() {
    const dir = await tempDir('flush-order-');
    const opened = await openDriveAt(dir.path);
    cleanup = async () => {
      await opened.drive.drain();
      await opened.store.close();
      await dir.cleanup();
    };
    return opened;
  }

  it('flushes the store before the manifest names the new file, never after', async () => {
    const { store, drive } = await openDrive();
    const user = { email: 'flush@example.org', hex: 'cd'.repeat(32), npub: '', g1pub: null, gps: null };
    const manifestPath = join(drive.driveDir(user), 'manifest.json');
    const listedAtFlush: boolean[] = [];
    const flush = store.flush.bind(store);
    store.flush = async () => {
      const manifest = await readDriveManifest(dirname(manifestPath));
      listedAtFlush.push(manifest.files.some((f) => f.name === 'late.txt'));
      await flush();
    };
    await drive.addStream(user, 'early.txt', once_(Buffer.from('first')), { kind: 'cli' });
    listedAtFlush.length = 0;
    const added = await drive.addStream(user, 'late.txt', once_(Buffer.from('second')), { kind: 'cli' });
    expect(listedAtFlush).toEqual([false]);
    const manifest = await readDriveManifest(dirname(manifestPath));
    expect(manifest.files.map((f) => f.path)).toContain(added.entry.path);
  });

  it('keeps one opening of a drive’s log while it is written, closes it with the fold, and recovers from a failed publication', async () => {
    const { store, drive } = await openDrive();
    const user = { email: 'fails@example.org', hex: 'ce'.repeat(32), npub: '', g1pub: null, gps: null };
    const openLogs = () => openDescriptorsOn(join(drive.driveDir(user), '.manifest.log'));
    await drive.addStream(user, 'first.txt', once_(Buffer.from('first')), { kind: 'cli' });
    expect(await openLogs()).toBe(1);
    const flush = store.flush.bind(store);
    store.flush = () => Promise.reject(new Error('disk gone'));
    await expect(
      drive.addStream(user, 'second.txt', once_(Buffer.from('second')), { kind: 'cli' }),
    ).rejects.toThrow('disk gone');
    expect(await openLogs()).toBe(1);
    store.flush = flush;
    const third = await drive.addStream(user, 'third.txt', once_(Buffer.from('third')), { kind: 'cli' });
    const manifest = await readDriveManifest(drive.driveDir(user));
    expect(manifest.files.map((f) => f.name)).toEqual(['first.txt', third.entry.name]);
    expect(await openLogs()).toBe(1);
    // Folding the log into manifest.json removes it: the opening goes with it (a later change opens the new one).
    await drive.drain();
    expect(await openLogs()).toBe(0);
  });
});
