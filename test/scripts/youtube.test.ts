import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFakeYtDlp, youtubeCookie, type FakeYtDlp } from './fake-ytdlp.js';
import { createStation, runScript, type TestStation } from './station.js';

const EMAIL = 'alice@example.org';
const LIKES = ['aaaaaaaaaa1', 'bbbbbbbbbb2', 'cccccccccc3', 'dddddddddd4', 'eeeeeeeeee5'];
const videoName = (id: string) => `Liked video ${id} [${id}].mp4`;

// Results go into the drive through the real `station drive add` (src/cli/drive.ts, from the sources).
// Each `station drive add` the scripts run starts the CLI through tsx (2–3 s on a loaded machine).
describe('scripts/youtube.com.sh', { timeout: 120_000 }, () => {
  let station: TestStation;
  let ytdlp: FakeYtDlp;
  let cookie: string;
  let userDir: string;

  beforeEach(async () => {
    station = await createStation();
    ytdlp = await installFakeYtDlp(station);
    userDir = await station.addUser(EMAIL);
    cookie = await station.writeCookie(EMAIL, 'youtube.com', youtubeCookie('valid'));
  });
  afterEach(async () => station.close());

  const sync = (env: NodeJS.ProcessEnv = {}) =>
    runScript('youtube.com.sh', [EMAIL, cookie], {
      ...station.env,
      ...ytdlp.env,
      FAKE_YTDLP_LIKES: LIKES.join(','),
      ...env,
    });
  const downloads = async () => (await ytdlp.calls()).filter((args) => !args.includes('--flat-playlist'));
  const state = async () => (await readFile(join(userDir, '.youtube.com_synced'), 'utf8')).trim().split('\n');

  it('downloads the newest likes up to the daily bound and adds them to the Videos drive', async () => {
    const result = await sync();
    expect(result.code, result.stderr).toBe(0);
    expect(await station.driveFiles(EMAIL, 'Videos')).toEqual(LIKES.slice(0, 3).map(videoName).sort());
    const stored = await readFile(join(userDir, 'APP', 'uDRIVE', 'Videos', videoName(LIKES[0]!)), 'utf8');
    expect(stored).toBe(`fake video ${LIKES[0]}\n`);
    expect(result.stdout).toMatch(/3 added, 0 failed, 3\/3 today/);
    // The drive CLI answered one JSON line per file.
    const added = result.stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(added.map((line) => (JSON.parse(line) as { file_path: string }).file_path).sort()).toEqual(
      LIKES.slice(0, 3)
        .map((id) => `APP/uDRIVE/Videos/${videoName(id)}`)
        .sort(),
    );

    const calls = await ytdlp.calls();
    expect(calls).toHaveLength(4);
    expect(calls[0]).toEqual(
      expect.arrayContaining(['--flat-playlist', '--print', 'id', `${ytdlp.site}/playlist?list=LL`]),
    );
    expect(calls.slice(1).map((args) => args.at(-1))).toEqual(
      LIKES.slice(0, 3).map((id) => `${ytdlp.site}/watch?v=${id}`),
    );
    expect(await state()).toEqual(
      LIKES.slice(0, 3).map((id) => expect.stringMatching(`^${id}\t\\d{4}-\\d\\d-\\d\\d\tadded$`)),
    );
  });

  it('gives yt-dlp a private copy of the cookie, leaving the upload untouched and no copy behind', async () => {
    const before = await readFile(cookie, 'utf8');
    expect((await sync()).code).toBe(0);
    expect(await readFile(cookie, 'utf8')).toBe(before);
    expect((await stat(cookie)).mode & 0o777).toBe(0o600);
    const used = (await ytdlp.calls()).map((args) => args[args.indexOf('--cookies') + 1]);
    expect(new Set(used).size).toBe(1);
    expect(used[0]).not.toBe(cookie);
    expect((await readdir(station.tmpDir)).filter((name) => name.startsWith('youtube.com.'))).toEqual([]);
  });

  it('skips likes already synced and respects the daily bound across runs', async () => {
    expect((await sync()).code).toBe(0);
    const again = await sync();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/daily bound of 3 videos already reached/);
    expect(await downloads()).toHaveLength(3);

    // A higher bound the same day: only the two likes not yet synced are fetched.
    const more = await sync({ YOUTUBE_DAILY_MAX: '10' });
    expect(more.code, more.stderr).toBe(0);
    expect((await downloads()).map((args) => args.at(-1))).toEqual(
      LIKES.map((id) => `${ytdlp.site}/watch?v=${id}`),
    );
    expect(await station.driveFiles(EMAIL, 'Videos')).toEqual(LIKES.map(videoName).sort());
    expect(await state()).toHaveLength(5);
  });

  it('passes the scan bound to yt-dlp and ignores lines that are not video ids', async () => {
    const result = await sync({ YOUTUBE_SCAN_MAX: '2', FAKE_YTDLP_LIKES: `../../etc,${LIKES.join(',')}` });
    expect(result.code, result.stderr).toBe(0);
    const [listing] = await ytdlp.calls();
    expect(listing![listing!.indexOf('--playlist-end') + 1]).toBe('2');
    expect(await station.driveFiles(EMAIL, 'Videos')).toEqual([videoName(LIKES[0]!)]);
  });

  it.each([
    ['rotated', /cookies are no longer valid/],
    ['bot', /Sign in to confirm/],
    ['forbidden', /HTTP Error 403/],
    ['signed-out', /--cookies for the authentication/],
  ])('exits 2 when YouTube rejects the cookie (%s)', async (session, message) => {
    cookie = await station.writeCookie(EMAIL, 'youtube.com', youtubeCookie(session));
    const result = await sync();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/fresh youtube\.com cookie export must be uploaded\n$/);
    expect(await downloads()).toEqual([]);
    expect(await station.driveFiles(EMAIL, 'Videos')).toEqual([]);
  });

  it('records unavailable videos once and treats a media 403 as a failure of that video only', async () => {
    const result = await sync({ FAKE_YTDLP_UNAVAILABLE: LIKES[0], FAKE_YTDLP_MEDIA_403: LIKES[1] });
    expect(result.code, result.stderr).toBe(0);
    expect(await station.driveFiles(EMAIL, 'Videos')).toEqual(LIKES.slice(2).map(videoName).sort());
    expect(result.stdout).toMatch(/3 added, 1 failed/);
    const lines = await state();
    expect(lines.filter((line) => line.startsWith(LIKES[0]!))).toEqual([
      expect.stringMatching(/\tunavailable$/),
    ]);
    expect(lines.some((line) => line.startsWith(LIKES[1]!))).toBe(false);
  });

  it('never prints cookie values', async () => {
    const result = await sync();
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/secret-sid-value/);
  });

  it('refuses bad arguments (64) and a missing STATION_CLI (1) before calling yt-dlp', async () => {
    expect((await runScript('youtube.com.sh', [EMAIL], station.env)).code).toBe(64);
    expect((await runScript('youtube.com.sh', ['../x@example.org', cookie], station.env)).code).toBe(64);
    expect((await runScript('youtube.com.sh', [EMAIL, 'relative.cookie'], station.env)).code).toBe(64);
    expect((await sync({ YOUTUBE_DAILY_MAX: '0' })).code).toBe(64);
    const noCli = await sync({ STATION_CLI: '' });
    expect(noCli.code).toBe(1);
    expect(noCli.stderr).toMatch(/STATION_CLI is not set/);
    expect(await ytdlp.calls()).toEqual([]);
  });
});
