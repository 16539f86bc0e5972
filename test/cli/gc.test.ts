import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStore } from '../../src/identity/user-store.js';
import { openDriveAt } from '../drive/drive-fixture.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('station gc (CLI)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('gc-cli-');
  });
  afterAll(() => dir.cleanup());

  const station = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path, ...env },
    });

  it('collects what a deleted file left, keeps what the drive lists, and says what it did', async () => {
    const dataRoot = join(dir.path, '.zen', 'game');
    const users = await UserStore.open(dataRoot, { uplanetName: '0'.repeat(64), watch: false });
    const created = await users.create({ email: 'collect@example.org' });
    users.close();
    const user = created.record;
    // Added by processes that are gone (their links are no upload in flight), one deleted since.
    const kept = join(dir.path, 'kept.txt');
    const gone = join(dir.path, 'gone.txt');
    await writeFile(kept, 'kept');
    await writeFile(gone, 'gone soon');
    const added = JSON.parse((await station({}, 'drive', 'add', '--user', user.email, kept)).stdout) as {
      new_cid: string;
    };
    await station({}, 'drive', 'add', '--user', user.email, gone);
    const services = await openDriveAt(dataRoot);
    await services.drive.delete(user, 'Documents/gone.txt');
    await services.close();
    const files = () => readdir(join(dataRoot, 'ipfs-store', 'files'));
    expect(await files()).toHaveLength(2);

    // Kept a day by default: nothing a client was handed goes yet.
    const first = JSON.parse((await station({}, 'gc', '--json')).stdout) as { files: number; skipped: null };
    expect(first).toMatchObject({ skipped: null, files: 0 });
    const now = JSON.parse((await station({ STORE_KEEP_ROOTS_S: '0' }, 'gc', '--json')).stdout) as {
      files: number;
      blocks: number;
    };
    expect(now.files).toBe(1);
    expect(now.blocks).toBeGreaterThan(0);
    expect(await files()).toHaveLength(1);

    const again = await openDriveAt(dataRoot);
    try {
      const list = await again.drive.list(user);
      expect(list.files.map((f) => f.path)).toEqual(['Documents/kept.txt']);
      // Deleting the file added last gives back the root from before it.
      expect(list.root_cid).toBe(added.new_cid);
      expect(await again.store.holds(list.root_cid!)).toBe(true);
    } finally {
      await again.close();
    }
    const text = (await station({}, 'gc')).stdout;
    expect(text).toMatch(/^removed 0 blocks/);
  });
});
