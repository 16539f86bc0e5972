import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newKey, type TestKey } from '../helpers/nostr.js';
import { startUploadStation, type UploadStation } from './upload-station.js';

/** One household's public address, behind its box: every device there shares it. */
const HOUSEHOLD = '203.0.113.60';
const LONE = '203.0.113.61';
const NOBODY = '203.0.113.62';
const COOKIES = '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t2145916800\tsid\tabc\n';

/**
 * UPlanet's cookie, photo and webcam pages post `file` then `npub`, with no Authorization header
 * (test/clients/photo-upload.test.ts, webcam-upload.test.ts): the file may come first from an address with a
 * live relay login, and the npub that follows must be one of the keys logged in from there
 * (docs/auth-model.md, "Uploads that send the file first").
 */
describe('uploads that send the file first, from one address with two logins', () => {
  let s: UploadStation;
  let alice: TestKey;
  let bob: TestKey;
  let carol: TestKey;
  let dave: TestKey;
  let staged = 0;

  beforeAll(async () => {
    s = await startUploadStation();
    alice = await s.member('alice@example.org', HOUSEHOLD);
    bob = await s.member('bob@example.org', HOUSEHOLD);
    carol = await s.member('carol@example.org', '203.0.113.99');
    dave = await s.member('dave@example.org', LONE);
    const staging = s.station.t.app.drive.staging;
    const receive = staging.receive.bind(staging);
    vi.spyOn(staging, 'receive').mockImplementation((source, limits) => {
      staged += 1;
      return receive(source, limits);
    });
  });
  afterAll(() => s?.close());

  /** The pages' order: the file, then the npub (when given), nothing else. */
  function fileFirst(name: string, content: string, npub?: string): FormData {
    const form = new FormData();
    form.append('file', new File([content], name, { type: 'application/octet-stream' }));
    if (npub !== undefined) form.append('npub', npub);
    return form;
  }

  const post = (path: string, form: FormData, address = HOUSEHOLD) =>
    fetch(`${s.api}${path}`, {
      method: 'POST',
      body: form,
      headers: { origin: s.api, 'x-forwarded-for': address },
    });

  const drivePaths = async (key: TestKey) => {
    const res = await fetch(`${s.api}/api/drive?npub=${key.npub}`);
    return ((await res.json()) as { files: { path: string }[] }).files.map((file) => file.path);
  };

  /** Staged files left anywhere the station stages or keeps temporary files. */
  async function leftovers(): Promise<string[]> {
    const { dataRoot, tmpDir } = s.station.t.config;
    const found: string[] = [];
    for (const dir of [join(dataRoot, '.drive-staging'), tmpDir]) {
      const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
      found.push(...entries.filter((name) => name.endsWith('.part')));
    }
    return found;
  }

  it('each member uploads with their own npub after the file, into their own drive', async () => {
    const before = staged;
    const a = await post('/api/upload', fileFirst('alice.txt', 'from alice', alice.hex));
    expect(a.status).toBe(200);
    const b = await post('/api/upload', fileFirst('bob.txt', 'from bob', bob.npub));
    expect(b.status).toBe(200);
    expect(staged - before).toBe(2);
    expect(await drivePaths(alice)).toEqual(['Documents/alice.txt']);
    expect(await drivePaths(bob)).toEqual(['Documents/bob.txt']);
    expect(await leftovers()).toEqual([]);
  });

  it("the cookie page's upload lands in the named member's directory", async () => {
    const res = await post('/api/fileupload', fileFirst('cookies.txt', COOKIES, bob.hex));
    expect(res.status).toBe(200);
    expect((await res.json()) as Record<string, unknown>).toMatchObject({ file_type: 'netscape_cookies' });
    const dir = (email: string) => join(s.station.t.config.dataRoot, 'nostr', email);
    expect(await readFile(join(dir('bob@example.org'), '.example.com.cookie'), 'utf8')).toContain('sid');
    await expect(readFile(join(dir('alice@example.org'), '.example.com.cookie'))).rejects.toThrow();
  });

  it('no npub after the file: 401 {detail, code}, never guessed, the staged file removed', async () => {
    const before = staged;
    const res = await post('/api/upload', fileFirst('orphan.txt', 'whose?'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: expect.any(String), code: 'AUTH_REQUIRED' });
    expect(staged - before).toBe(1);
    expect(await leftovers()).toEqual([]);
  });

  it('an npub not logged in from this address: 401, the staged file removed', async () => {
    for (const npub of [carol.npub, newKey().npub]) {
      const res = await post('/api/fileupload', fileFirst('intruder.txt', 'not yours', npub));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String), code: 'AUTH_NOT_FOUND' });
    }
    expect(await drivePaths(carol)).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });

  it('one login alone at an address does not adopt an upload that names no one', async () => {
    const res = await post('/api/upload', fileFirst('unnamed.txt', 'no npub'), LONE);
    expect(res.status).toBe(401);
    expect(await drivePaths(dave)).toEqual([]);
    const named = await post('/api/upload', fileFirst('named.txt', 'dave', dave.npub), LONE);
    expect(named.status).toBe(200);
    expect(await drivePaths(dave)).toEqual(['Documents/named.txt']);
  });

  it('an address with no login is refused before anything is staged, as before', async () => {
    const before = staged;
    const res = await post('/api/upload', fileFirst('stranger.txt', 'hello', alice.npub), NOBODY);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: expect.any(String), code: 'AUTH_REQUIRED' });
    expect(staged).toBe(before);
  });

  it('the npub before the file still works from the household', async () => {
    const form = new FormData();
    form.append('npub', alice.npub);
    form.append('file', new File(['first'], 'npub-first.txt'));
    expect((await post('/api/upload', form)).status).toBe(200);
    expect(await drivePaths(alice)).toEqual(['Documents/alice.txt', 'Documents/npub-first.txt']);
  });
});
