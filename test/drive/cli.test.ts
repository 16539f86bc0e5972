import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStore } from '../../src/identity/user-store.js';
import { tempDir } from '../helpers/temp.js';
import { addRecursiveCid } from './drive-fixture.js';

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
    const driveDir = join(dir.path, '.zen', 'game', 'nostr', 'scraper@example.org', 'APP', 'uDRIVE');
    expect(answer.new_cid).toBe(await addRecursiveCid(driveDir));

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
      `Videos/Ma vidéo.mp4\t18\t${answer.file_cid}`,
      `Videos/Ma vidéo (1).mp4\t18\t${answer.file_cid}`,
      `root\t36\t${second.new_cid}`,
    ]);
    await expect(station('drive', 'ls', '--user', 'nobody@example.org')).rejects.toMatchObject({ code: 1 });
  });
});
