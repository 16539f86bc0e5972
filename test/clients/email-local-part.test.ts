import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginOnRelay } from '../helpers/relay-station.js';
import { keyFromSecret, type TestKey } from '../helpers/nostr.js';
import { runScript } from '../scripts/station.js';
import { startUploadStation, type UploadStation } from './upload-station.js';

const COOKIES = '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t2145916800\tsid\tabc\n';

/**
 * RFC 5322 dot-atom local parts (src/identity/email.ts): `o'hara@example.org` registers, logs in and uses its
 * drive; the address names one directory under DATA_ROOT/nostr, which the station's scripts take as one
 * argument. `/` is atext too, but a path segment never holds it: `a+b/c=d@example.org` is refused.
 */
describe('e-mail addresses with quotes, plus and equals signs', () => {
  let s: UploadStation;
  beforeAll(async () => {
    s = await startUploadStation();
  });
  afterAll(() => s?.close());

  const usersRoot = () => join(s.station.t.config.dataRoot, 'nostr');

  async function registerByPage(email: string): Promise<Response> {
    const body = new URLSearchParams({ email, lang: 'en', lat: '43.60', lon: '1.44' });
    return fetch(`${s.api}/g1nostr`, { method: 'POST', body, headers: { origin: s.api } });
  }

  async function registered(email: string): Promise<TestKey> {
    const res = await registerByPage(email);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { email: string; nsec: string };
    expect(answer.email).toBe(email);
    const decoded = nip19.decode(answer.nsec);
    return keyFromSecret(decoded.data as Uint8Array);
  }

  it.each(["o'hara@example.org", 'a+b=c.d@example.org'])(
    '%s: registration, relay login, an upload and its drive, a cookie file',
    async (email) => {
      const key = await registered(email);
      expect(await readdir(usersRoot())).toContain(email);
      await loginOnRelay(s.station, key, '127.0.0.1');
      const form = new FormData();
      form.append('file', new File(['hello'], 'note.txt'));
      form.append('npub', key.npub);
      const upload = await fetch(`${s.api}/api/upload`, {
        method: 'POST',
        body: form,
        headers: { origin: s.api },
      });
      expect(upload.status).toBe(200);
      const drive = (await (await fetch(`${s.api}/api/drive?npub=${key.npub}`)).json()) as {
        files: { path: string }[];
      };
      expect(drive.files.map((file) => file.path)).toEqual(['Documents/note.txt']);

      const cookie = new FormData();
      cookie.append('npub', key.npub);
      cookie.append('file', new File([COOKIES], 'cookies.txt'));
      const intake = await fetch(`${s.api}/api/fileupload`, {
        method: 'POST',
        body: cookie,
        headers: { origin: s.api },
      });
      expect(intake.status).toBe(200);
      // The scripts take the address as one argument, quotes and all, and find the file under it.
      const env = { ...process.env, DATA_ROOT: s.station.t.config.dataRoot };
      const found = await runScript('get_cookie.sh', [email, 'example.com'], env);
      expect(found).toEqual({
        code: 0,
        stdout: `${join(usersRoot(), email, '.example.com.cookie')}\n`,
        stderr: '',
      });
      // Logged out of their address, the same key is refused as any other: nothing special about the name.
      const other = await fetch(`${s.api}/api/upload`, {
        method: 'POST',
        body: form,
        headers: { origin: s.api, 'x-forwarded-for': '203.0.113.70' },
      });
      expect(other.status).toBe(401);
    },
  );

  it('a slash would make the directory two: refused with 400 INVALID_EMAIL, nothing created', async () => {
    const before = await readdir(usersRoot());
    const res = await registerByPage('a+b/c=d@example.org');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('INVALID_EMAIL');
    expect(await readdir(usersRoot())).toEqual(before);
    expect(await readdir(join(usersRoot(), '..'))).not.toContain('c=d@example.org');
  });
});
