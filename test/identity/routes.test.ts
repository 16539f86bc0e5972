import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('POST /g1nostr', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => t.close());

  const usersRoot = () => join(t.config.dataRoot, 'nostr');

  it('creates the user directory with keys, secrets (600) and GPS', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: 'email=Alice%40Example.org&lang=fr&lat=48.8566&lon=2.3522',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.email).toBe('alice@example.org');
    expect(body.salt).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(body.lat).toBe(48.86);
    const dir = join(usersRoot(), 'alice@example.org');
    expect((await readFile(join(dir, 'HEX'), 'utf8')).trim()).toBe(body.hex);
    expect((await readFile(join(dir, 'NPUB'), 'utf8')).trim()).toBe(body.npub);
    expect((await readFile(join(dir, 'G1PUBNOSTR'), 'utf8')).trim()).toBe(body.g1pub);
    expect((await readFile(join(dir, 'GPS'), 'utf8')).trim()).toBe('LAT=48.86; LON=2.35;');
    const secret = await readFile(join(dir, '.secret.nostr'), 'utf8');
    expect(secret).toBe(`NSEC=${body.nsec}; NPUB=${body.npub}; HEX=${body.hex};\n`);
    expect((await stat(join(dir, '.secret.nostr'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, '.secret.dunikey'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, '.secret.dunikey'), 'utf8')).toMatch(
      /^Type: PubSec\nVersion: 1\npub: \w+\nsec: \w+\n$/,
    );
    expect((await readdir(join(dir, 'APP', 'uDRIVE'))).sort()).toEqual([
      'Documents',
      'Images',
      'Music',
      'Videos',
    ]);
    expect((await t.app.users.findByHex(body.hex))?.email).toBe('alice@example.org');
  });

  it('uses supplied salt and pepper (contract vector)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: { email: 'c@example.org', salt: 'coucou', pepper: 'coucou' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().hex).toBe('9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27');
    expect(res.json().g1pub).toBe('g1P5kZ1PdDoeBVuMEvtDMm7Bfj8G6Xb9f9KrYEFYyMFj3qQ6T');
  });

  it('answers 409 for an existing e-mail and for credentials already in use', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email: 'a@b.org' } });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email: 'A@B.org' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'USER_EXISTS' });

    await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: { email: 'x@b.org', salt: 's1', pepper: 'p1' },
    });
    const twin = await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: { email: 'y@b.org', salt: 's1', pepper: 'p1' },
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().code).toBe('KEY_EXISTS');
  });

  it('creates exactly one directory when the same e-mail registers twice at once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email: 'race@b.org' } }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect((await readdir(usersRoot())).filter((n) => !n.startsWith('.'))).toEqual(['race@b.org']);
    expect((await readdir(usersRoot())).filter((n) => n.startsWith('.new-'))).toEqual([]);
  });

  it.each(['../x@y.z', 'a/b@c.d', '', 'nobody'])(
    'refuses the unsafe e-mail %j with 400 and creates nothing',
    async (email) => {
      const tree = () => readdir(t.root, { recursive: true });
      const before = await tree();
      const res = await t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: expect.any(String),
        code: 'INVALID_EMAIL',
        error: 'INVALID_EMAIL',
      });
      expect(await readdir(usersRoot())).toEqual([]);
      // Nothing anywhere under the temp root, including outside DATA_ROOT ("../x@y.z").
      expect(await tree()).toEqual(before);
    },
  );

  it.each([
    [{ email: 'g@b.org', lat: 'abc', lon: '2' }, 'INVALID_COORDINATES'],
    [{ email: 'g@b.org', lat: '91', lon: '2' }, 'INVALID_COORDINATES'],
    [{ email: 'g@b.org', salt: 'only-salt' }, 'INVALID_CREDENTIAL'],
    [{ email: 'g@b.org', salt: 'sp ace', pepper: 'x' }, 'INVALID_CREDENTIAL'],
    [{ nothing: true }, 'VALIDATION_FAILED'],
  ])('answers 400 for %j', async (payload, code) => {
    const res = await t.app.inject({ method: 'POST', url: '/g1nostr', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(code);
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('MALFORMED_JSON');
  });
});
