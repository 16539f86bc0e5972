import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStore } from '../../src/identity/user-store.js';
import { tempDir } from '../helpers/temp.js';
import { openDriveAt } from './drive-fixture.js';
import { expectPublishedAsOnDisk } from './published-tree.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('station drive (CLI)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('drive-cli-');
  });
  afterAll(() => dir.cleanup());

  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path },
    });
  const lines = (stdout: string) => stdout.trim().split('\n');

  it('adds downloaded files to a user drive, one JSON line each, and lists the drive', async () => {
    const users = await UserStore.open(join(dir.path, '.zen', 'game'), {
      uplanetName: '0'.repeat(64),
      watch: false,
    });
    await users.create({ email: 'scraper@example.org' });
    users.close();
    const video = join(dir.path, 'Ma vidéo.mp4');
    const cookies = join(dir.path, 'cookies.txt');
    await writeFile(video, 'not really a video');
    await writeFile(cookies, '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t0\tSID\tx\n');

    const added = await station('drive', 'add', '--user', 'scraper@example.org', video);
    const [answer] = lines(added.stdout).map((line) => JSON.parse(line));
    expect(answer).toMatchObject({
      file: video,
      success: true,
      file_path: 'APP/uDRIVE/Videos/Ma vidéo.mp4',
      file_type: 'video',
      fileName: 'Ma vidéo.mp4',
      size: 18,
      file_cid: expect.stringMatching(/^Qm/),
      new_cid: expect.stringMatching(/^Qm/),
    });
    const dataRoot = join(dir.path, '.zen', 'game');
    const driveDir = join(dataRoot, 'nostr', 'scraper@example.org', 'APP', 'uDRIVE');
    // The CLI writes the drive's manifest.json (an export of the index) before it exits.
    const exported = JSON.parse(await readFile(join(driveDir, 'manifest.json'), 'utf8'));
    expect(exported).toMatchObject({ root_cid: answer.new_cid, total_files: 1, exported_from: 'index' });
    expect(exported).not.toHaveProperty('log_seq');

    // A cookie file never goes to the drive; the other files of the same call still do (exit 1 overall).
    const mixed = await station('drive', 'add', '--user', 'scraper@example.org', cookies, video).catch(
      (e) => e,
    );
    expect(mixed.code).toBe(1);
    const [refused, second] = lines(mixed.stdout).map((line) => JSON.parse(line));
    expect(refused).toMatchObject({ file: cookies, success: false, code: 'COOKIE_FILE' });
    expect(second).toMatchObject({ success: true, fileName: 'Ma vidéo (1).mp4' });

    const listed = await station('drive', 'ls', '--user', 'scraper@example.org');
    expect(lines(listed.stdout)).toEqual([
      'path\tsize\tcid',
      `Videos/Ma vidéo.mp4\t18\t${answer.file_cid}`,
      `Videos/Ma vidéo (1).mp4\t18\t${answer.file_cid}`,
      `root\t36\t${second.new_cid}`,
    ]);
    await expect(station('drive', 'ls', '--user', 'nobody@example.org')).rejects.toMatchObject({ code: 1 });

    // A station opening the same DATA_ROOT sees what the CLI committed: its head is the last answer's root,
    // which is the drive as it is on disk.
    const services = await openDriveAt(dataRoot, { quotaBytes: 1024 ** 3 });
    try {
      expect(services.reads.driveKeys()).toHaveLength(1);
      const [hex] = services.reads.driveKeys();
      const manifest = await services.drive.list({ email: 'scraper@example.org', hex: hex! });
      expect(manifest.root_cid).toBe(second.new_cid);
      await expectPublishedAsOnDisk(services.store, second.new_cid, driveDir, manifest);
    } finally {
      await services.close();
    }
  });
});
