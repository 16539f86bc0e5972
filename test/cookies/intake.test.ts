import { Writable } from 'node:stream';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey, nip98Header } from '../helpers/nostr.js';
import { postForm, register, type Owner } from '../helpers/multipart.js';
import { cookieFile, cookieLine } from './fixtures.js';
import { modeOf, postFile, snapshot } from './harness.js';

const SECRET_VALUE = 'CookieValueThatMustNeverBeLogged42';
const LOCAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;

describe('POST /api/fileupload: cookie intake', () => {
  let t: TestApp;
  let alice: Owner;
  let bob: Owner;
  const logs: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    t = await buildTestApp({ overrides: { logger: pino({ level: 'trace' }, sink) } });
    alice = await register(t, 'alice@example.org');
    bob = await register(t, 'bob@example.org');
  });
  afterAll(() => t.close());

  const cookieFiles = async (dir: string) =>
    (await readdir(dir)).filter((n) => n.endsWith('.cookie') || n === '.cookie.txt');

  it('stores a domain and its subdomains as .<domain>.cookie, mode 600, byte for byte', async () => {
    const content = cookieFile(
      [cookieLine('.youtube.com', { value: SECRET_VALUE }), `#HttpOnly_${cookieLine('www.youtube.com')}`],
      { eol: '\r\n' },
    );
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(content)]);
    const res = await postFile(t, alice, bytes);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      message: expect.stringContaining('youtube.com'),
      file_path: 'alice@example.org/.youtube.com.cookie',
      file_type: 'netscape_cookies',
      target_directory: alice.dir,
      new_cid: null,
      timestamp: expect.stringMatching(LOCAL_ISO),
      auth_verified: true,
      description: 'Domain: youtube.com',
    });
    const stored = join(alice.dir, '.youtube.com.cookie');
    expect((await readFile(stored)).equals(bytes)).toBe(true);
    expect(await modeOf(stored)).toBe(0o600);
    expect(await cookieFiles(alice.dir)).toEqual(['.youtube.com.cookie']);
  });

  it('reads a cookie file larger than what staging keeps in memory from disk, with the same answer', async () => {
    // Past COOKIE_SNIFF_BYTES (64 KiB): scanned from the staged file, not from memory.
    const lines = Array.from({ length: 400 }, (_, i) =>
      cookieLine('.vimeo.com', { name: `c${i}`, value: 'v'.repeat(200) }),
    );
    const content = cookieFile(lines);
    expect(content.length).toBeGreaterThan(64 * 1024);
    const res = await postFile(t, alice, content);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      description: 'Domain: vimeo.com',
      message: expect.stringContaining('400 cookies'),
    });
    expect(await readFile(join(alice.dir, '.vimeo.com.cookie'), 'utf8')).toBe(content);
  });

  it('accepts a file of #HttpOnly_ lines only, without a header', async () => {
    const content = cookieFile([`#HttpOnly_${cookieLine('.leboncoin.fr')}`], { header: false });
    const res = await postFile(t, alice, content, {
      filename: 'export.bin',
      type: 'application/octet-stream',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().description).toBe('Domain: leboncoin.fr');
  });

  it('replaces the previous file of the same domain on re-upload', async () => {
    const first = cookieFile([cookieLine('.example.net', { value: 'first' })]);
    const second = cookieFile([cookieLine('www.example.net', { value: 'second' })]);
    expect((await postFile(t, bob, first)).statusCode).toBe(200);
    expect((await postFile(t, bob, second)).statusCode).toBe(200);
    expect(await readFile(join(bob.dir, '.example.net.cookie'), 'utf8')).toBe(second);
    expect((await readdir(bob.dir)).filter((n) => n.includes('example.net'))).toEqual([
      '.example.net.cookie',
    ]);
  });

  it('saves a cookie file with no detectable domain as .cookie.txt', async () => {
    const res = await postFile(t, bob, '# Netscape HTTP Cookie File\n# nothing exported\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ file_path: 'bob@example.org/.cookie.txt', new_cid: null });
    expect(await modeOf(join(bob.dir, '.cookie.txt'))).toBe(0o600);
  });

  describe('refusals write nothing anywhere', () => {
    let before: Record<string, string>;
    beforeAll(async () => {
      before = await snapshot(t.root);
    });

    const refused = async (res: Awaited<ReturnType<typeof postFile>>, status: number) => {
      expect(res.statusCode).toBe(status);
      expect(await snapshot(t.root)).toEqual(before);
      return res.json() as { detail: string; code: string };
    };

    it('refuses two registrable domains, listing both', async () => {
      const body = await refused(
        await postFile(t, alice, cookieFile([cookieLine('accounts.google.com'), cookieLine('.youtube.com')])),
        400,
      );
      expect(body.code).toBe('MULTI_DOMAIN_COOKIES');
      expect(body.detail).toMatch(/multi-domain/i);
      expect(body.detail).toMatch(/one domain per file/i);
      expect(body.detail).toContain('google.com, youtube.com');
    });

    it('tells bbc.co.uk and amazon.co.uk apart (Public Suffix List)', async () => {
      const body = await refused(
        await postFile(t, alice, cookieFile([cookieLine('.bbc.co.uk'), cookieLine('www.amazon.co.uk')])),
        400,
      );
      expect(body.detail).toContain('amazon.co.uk, bbc.co.uk');
    });

    it.each(['../../x', 'a/b.com', '..\\evil.com', '.youtube.com/../../../etc'])(
      'refuses the domain %j',
      async (host) => {
        const body = await refused(
          await postFile(t, alice, cookieFile([cookieLine(host, { value: SECRET_VALUE })])),
          400,
        );
        expect(body.code).toBe('INVALID_COOKIE_DOMAIN');
      },
    );

    it('refuses without authentication (401) and for another user’s npub (403)', async () => {
      const content = cookieFile([cookieLine('.youtube.com')]);
      const anonymous = await refused(await postFile(t, alice, content, { auth: 'none', npub: null }), 401);
      expect(anonymous.code).toBe('AUTH_REQUIRED');
      const unproven = await refused(await postFile(t, alice, content, { auth: 'none' }), 401);
      expect(unproven.code).toBe('AUTH_NOT_FOUND');
      const other = await refused(await postFile(t, alice, content, { npub: bob.npub }), 403);
      expect(other.code).toBe('NPUB_MISMATCH');
      const stranger = await refused(await postFile(t, newKey(), content), 403);
      expect(stranger.code).toBe('NOT_REGISTERED');
    });

    it('refuses a NIP-98 payload tag that does not match the body', async () => {
      const content = cookieFile([cookieLine('.youtube.com')]);
      const otherBody = nip98Header(alice, 'http://localhost/api/fileupload', 'POST', { body: 'other body' });
      const res = await postForm(
        t,
        '/api/fileupload',
        [{ name: 'file', value: content, filename: 'c.txt' }],
        otherBody,
      );
      expect((await refused(res, 401)).code).toBe('AUTH_PAYLOAD_MISMATCH');
    });

    it('refuses a form without a file', async () => {
      const res = await postForm(t, '/api/fileupload', [{ name: 'npub', value: alice.npub }], alice);
      expect((await refused(res, 400)).code).toBe('MISSING_FILE');
    });

    it('refuses a malformed body as 400, not 500', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fileupload',
        payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          // Signed, so the body is read at all: an upload without an owner is refused (401) before it is.
          authorization: nip98Header(alice, 'http://localhost/api/fileupload', 'POST'),
        },
      });
      expect(res.statusCode).toBe(400);
      expect(await snapshot(t.root)).toEqual(before);
    });

    it('refuses a cookie file larger than a single-domain export can be (413)', async () => {
      const line = `${cookieLine('.youtube.com', { value: 'v'.repeat(3000) })}\n`;
      const content = `# Netscape HTTP Cookie File\n${line.repeat(Math.ceil((9 * 1048576) / line.length))}`;
      const body = await refused(await postFile(t, alice, content), 413);
      expect(body.code).toBe('COOKIE_FILE_TOO_LARGE');
    });
  });

  describe('between cookie intake and the drive', () => {
    const driveFiles = async (owner: Owner) =>
      Object.keys(await snapshot(join(owner.dir, 'APP', 'uDRIVE'))).filter(
        // Hidden bookkeeping (`.media/`, `.journal`) is not drive content.
        (name) => name !== 'manifest.json' && !name.startsWith('.'),
      );

    it('sends a cookie file posted to /api/upload to cookie intake, never to the drive or the store', async () => {
      const store = await snapshot(join(t.root, 'game')).then((files) =>
        Object.keys(files).filter((f) => f.startsWith('ipfs-store')),
      );
      const content = cookieFile([cookieLine('.notebooklm.google.com', { value: SECRET_VALUE })]);
      const res = await postFile(t, bob, content, { path: '/api/upload', filename: 'holiday-notes.txt' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        file_type: 'netscape_cookies',
        new_cid: null,
        description: 'Domain: google.com',
      });
      expect(await readFile(join(bob.dir, '.google.com.cookie'), 'utf8')).toBe(content);
      expect(await driveFiles(bob)).toEqual([]);
      const after = Object.keys(await snapshot(join(t.root, 'game'))).filter((f) =>
        f.startsWith('ipfs-store'),
      );
      expect(after).toEqual(store);
    });

    it('sends a file that is not a cookie file posted to /api/fileupload to the drive', async () => {
      const res = await postFile(t, bob, 'Dear diary,\ntoday I wrote a note.\n', { filename: 'note.txt' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, file_path: 'APP/uDRIVE/Documents/note.txt' });
      expect(typeof res.json().new_cid).toBe('string');
      expect(await driveFiles(bob)).toEqual(['Documents/note.txt']);
    });

    it('leaves nothing in the staging folder it shares with the drive', async () => {
      expect(await readdir(join(t.config.dataRoot, '.drive-staging'))).toEqual([]);
    });
  });

  it('never logs cookie content, whatever happened', () => {
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(SECRET_VALUE);
    expect(logs.join('\n')).not.toContain('c2VjcmV0LXNlc3Npb24tdmFsdWU');
  });
});
