import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeExecutable, type TestStation } from './station.js';

/**
 * A stand-in for yt-dlp speaking its command line: `--flat-playlist --print id` lists the LL playlist,
 * otherwise `-o <template> -- <watch URL>` "downloads" a small file. The session lives in the cookie
 * file, as with the real site: `LOGIN_INFO=valid` is a signed-in account; `rotated`, `bot` and
 * `forbidden` produce yt-dlp's messages for a cookie YouTube no longer accepts. Like yt-dlp, it writes
 * the cookie jar back to the --cookies file. Every call is appended to `calls.jsonl`.
 */
const SOURCE = `
const { appendFileSync, readFileSync, writeFileSync } = require('node:fs');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const url = args[args.indexOf('--') + 1] ?? '';
const cookies = option('--cookies');
appendFileSync(process.env.FAKE_YTDLP_CALLS, JSON.stringify({ args }) + '\\n');
const jar = cookies ? readFileSync(cookies, 'utf8') : '';
if (cookies) appendFileSync(cookies, '.youtube.com\\tTRUE\\t/\\tTRUE\\t0\\tYSC\\trotated-by-ytdlp\\n');
const fail = (message) => { process.stderr.write(message + '\\n'); process.exit(1); };
if (!url.startsWith(process.env.FAKE_YTDLP_SITE + '/')) fail('ERROR: Unsupported URL: ' + url);
const session = /\\tLOGIN_INFO\\t(\\S+)/.exec(jar)?.[1];
if (session === 'rotated') {
  process.stderr.write('WARNING: [youtube] The provided YouTube account cookies are no longer valid. ' +
    'They have likely been rotated in the browser as a security measure.\\n');
  fail('ERROR: [youtube:tab] LL: The playlist does not exist.');
}
if (session === 'bot') fail("ERROR: [youtube] Sign in to confirm you're not a bot. Use --cookies-from-browser or --cookies for the authentication.");
if (session === 'forbidden') fail('ERROR: [youtube:tab] LL: HTTP Error 403: Forbidden');
if (session !== 'valid') fail('ERROR: [youtube:tab] LL: This playlist is private. Use --cookies-from-browser or --cookies for the authentication.');
if (args.includes('--flat-playlist')) {
  if (!url.endsWith('/playlist?list=LL')) fail('ERROR: not the likes playlist');
  const likes = (process.env.FAKE_YTDLP_LIKES ?? '').split(',').filter(Boolean);
  const end = Number(option('--playlist-end') ?? likes.length);
  process.stdout.write(likes.slice(0, end).map((id) => id + '\\n').join(''));
  process.exit(0);
}
const id = new URL(url).searchParams.get('v');
const listed = (name) => (process.env[name] ?? '').split(',').includes(id);
if (listed('FAKE_YTDLP_UNAVAILABLE')) fail('ERROR: [youtube] ' + id + ': Video unavailable. This video has been removed by the uploader');
if (listed('FAKE_YTDLP_MEDIA_403')) fail('ERROR: unable to download video data: HTTP Error 403: Forbidden');
const target = option('-o')
  .replace(/%\\(title\\)(\\.\\d+)?[sB]/, 'Liked video ' + id)
  .replace('%(id)s', id)
  .replace('%(ext)s', 'mp4');
writeFileSync(target, 'fake video ' + id + '\\n');
process.stdout.write('[download] Destination: ' + target + '\\n');
`;

export interface FakeYtDlp {
  path: string;
  site: string;
  env: NodeJS.ProcessEnv;
  calls(): Promise<string[][]>;
}

export async function installFakeYtDlp(station: TestStation): Promise<FakeYtDlp> {
  // The stand-in is CommonJS and has no extension: Node would take it for ESM under any package.json with
  // "type": "module" above the temp folder (a checkout or a stray file in /tmp), so its folder says otherwise.
  await writeFile(join(station.binDir, 'package.json'), '{ "type": "commonjs" }\n');
  const path = await writeExecutable(station, 'yt-dlp', `#!${process.execPath}\n${SOURCE}`);
  const callsFile = join(station.root, 'calls.jsonl');
  const site = 'http://127.0.0.1:1/youtube';
  return {
    path,
    site,
    env: { YTDLP: path, YOUTUBE_URL: site, FAKE_YTDLP_SITE: site, FAKE_YTDLP_CALLS: callsFile },
    async calls() {
      const text = await readFile(callsFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { args: string[] }).args);
    },
  };
}

export const youtubeCookie = (session: string): string =>
  [
    '# Netscape HTTP Cookie File',
    ['.youtube.com', 'TRUE', '/', 'TRUE', '4102444800', 'LOGIN_INFO', session].join('\t'),
    ['#HttpOnly_.youtube.com', 'TRUE', '/', 'TRUE', '4102444800', 'SID', 'secret-sid-value'].join('\t'),
    '',
  ].join('\n');
