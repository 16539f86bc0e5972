import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DriveState } from '../../src/drive/drive-state.js';
import type { UserRecord } from '../../src/identity/user-files.js';
import { addRecursiveCid } from './drive-fixture.js';
import { openDriveAt } from './drive-on-disk.js';
import { once_ } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const user: UserRecord = {
  email: 'flat@example.org',
  hex: 'ab'.repeat(32),
  npub: '',
  g1pub: null,
  gps: null,
};
const EXTENSIONS = ['jpg', 'mp3', 'mp4', 'pdf'];

/**
 * What one upload writes, counted rather than timed: the same number of blocks and no more manifest bytes
 * whether the drive holds 1,000 files or 2,000 (issue 16: an upload touches only what changes).
 */
describe('the cost of an upload as the drive fills', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let opened: Awaited<ReturnType<typeof openDriveAt>>;
  let files = 0;
  const add = (name = `f-${String(files).padStart(5, '0')}.${EXTENSIONS[files % 4]}`) => {
    files += 1;
    return opened.drive.addStream(user, name, once_(Buffer.from(`content ${files}`)), { kind: 'cli' });
  };
  const fillTo = async (count: number) => {
    while (files < count) await Promise.all(Array.from({ length: Math.min(50, count - files) }, () => add()));
  };

  /**
   * Blocks stored and whole files imported by one more upload, whether manifest.json was rewritten, and how
   * often the drive's whole list was copied (DriveState.filesAfter).
   */
  async function measureOne() {
    const { store } = opened;
    const counts = { blocks: 0, blockBytes: 0, imports: 0 };
    const listings = vi.spyOn(DriveState.prototype, 'filesAfter');
    const putBlock = store.putBlock.bind(store);
    const importFile = store.addFile.bind(store);
    store.putBlock = async (bytes) => {
      counts.blocks += 1;
      counts.blockBytes += bytes.length;
      return putBlock(bytes);
    };
    store.addFile = async (path, options) => {
      counts.imports += 1;
      return importFile(path, options);
    };
    const manifest = join(opened.drive.driveDir(user), 'manifest.json');
    const before = (await stat(manifest)).ino;
    try {
      await add();
    } finally {
      store.putBlock = putBlock;
      store.addFile = importFile;
    }
    const listed = listings.mock.calls.length;
    listings.mockRestore();
    return { ...counts, listed, manifestRewritten: (await stat(manifest)).ino !== before };
  }

  beforeAll(async () => {
    dir = await tempDir('flat-cost-');
    opened = await openDriveAt(dir.path);
  });
  afterAll(async () => {
    await opened.drive.drain();
    await opened.store.close();
    await dir.cleanup();
  });

  it('stores the same blocks, lists no files and rewrites no manifest at 1,000 files and at 2,000', async () => {
    await fillTo(1_000);
    await add(); // the first upload after a fill publishes from a warm cache, like every later one
    const small = await measureOne();
    await fillTo(2_000);
    await add();
    const large = await measureOne();
    // The file's own import, then: its wrapper, its category folder, the public manifest's last leaf and
    // root node, the drive root. Nothing else, at either size.
    expect(small).toMatchObject({ imports: 1, listed: 0, manifestRewritten: false });
    expect(large).toMatchObject({ imports: 1, listed: 0, blocks: small.blocks, manifestRewritten: false });
    expect(large.blocks).toBeLessThanOrEqual(6);
    // The public manifest of 1,000 files and more is several leaves; only the last is written again, and the folder
    // holding a quarter of the files grows by a link per file.
    const folderGrowth = (1_000 / 4 + 1) * 60;
    expect(large.blockBytes - small.blockBytes).toBeLessThan(262_144 + folderGrowth);
    expect(await opened.drive.list(user).then((m) => m.root_cid)).toBe(
      await addRecursiveCid(opened.drive.driveDir(user)),
    );
  });
});
