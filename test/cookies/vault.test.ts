import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTimestamp } from '../../src/clock.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { startStreams } from '../../streams/index.js';
import type { RelayClient } from '../../streams/relay-client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { connectedClient, publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { cookieFile, cookieLine } from './fixtures.js';
import { register, type Owner } from '../helpers/multipart.js';
import { postFile, vault } from './harness.js';

const LOCAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;

describe('the owner’s cookie vault: GET /cookie (JSON), GET and DELETE /cookie/<domain>', () => {
  let t: TestApp;
  let alice: Owner;
  let bob: Owner;
  const youtube = cookieFile([
    cookieLine('.youtube.com', { expires: 1_900_000_500 }),
    cookieLine('www.youtube.com', { expires: 0 }),
    `#HttpOnly_${cookieLine('.youtube.com', { expires: 1_900_000_000 })}`,
  ]);
  const google = cookieFile([cookieLine('accounts.google.com', { expires: 1_950_000_000 })]);

  beforeAll(async () => {
    t = await buildTestApp();
    alice = await register(t, 'alice@example.org');
    bob = await register(t, 'bob@example.org');
    for (const content of [youtube, google, '# Netscape HTTP Cookie File\n']) {
      expect((await postFile(t, alice, content)).statusCode).toBe(200);
    }
    expect((await postFile(t, bob, cookieFile([cookieLine('.leboncoin.fr')]))).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('lists the caller’s files with their earliest expiry, and nobody else’s', async () => {
    const res = await vault(t, alice, 'GET', '/cookie');
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toMatch(/accept/i);
    const { cookies, count } = res.json();
    expect(count).toBe(3);
    expect(cookies.map((c: { domain: string | null }) => c.domain)).toEqual([
      null,
      'google.com',
      'youtube.com',
    ]);
    expect(cookies[2]).toEqual({
      domain: 'youtube.com',
      file: '.youtube.com.cookie',
      uploaded_at: expect.stringMatching(LOCAL_ISO),
      size: Buffer.byteLength(youtube),
      expires_at: localTimestamp(1_900_000_000 * 1000),
    });
    expect(cookies[0]).toMatchObject({ file: '.cookie.txt', expires_at: null });
    const bobs = (await vault(t, bob, 'GET', '/cookie')).json();
    expect(bobs.cookies.map((c: { domain: string }) => c.domain)).toEqual(['leboncoin.fr']);
  });

  it('returns the owner’s file as text/plain, falling back to the parent domain', async () => {
    const exact = await vault(t, alice, 'GET', '/cookie/youtube.com', '*/*');
    expect(exact.statusCode).toBe(200);
    expect(exact.headers['content-type']).toMatch(/^text\/plain/);
    expect(exact.headers['cache-control']).toBe('no-store');
    expect(exact.body).toBe(youtube);
    const parent = await vault(t, alice, 'GET', '/cookie/notebooklm.google.com', '*/*');
    expect(parent.statusCode).toBe(200);
    expect(parent.headers['x-cookie-domain']).toBe('google.com');
    expect(parent.body).toBe(google);
    expect((await vault(t, alice, 'GET', '/cookie/.cookie.txt', '*/*')).body).toBe(
      '# Netscape HTTP Cookie File\n',
    );
    const missing = await vault(t, bob, 'GET', '/cookie/youtube.com', '*/*');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('COOKIE_NOT_FOUND');
  });

  it('refuses domains that are not host names', async () => {
    for (const path of [
      '/cookie/..%2F..%2Fetc',
      '/cookie/a%5Cb.com',
      '/cookie/a%20b.com',
      '/cookie/a..b.com',
      '/cookie/%2Fetc',
    ]) {
      const res = await vault(t, alice, 'GET', path, '*/*');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_DOMAIN');
    }
  });

  it('never lists, reads or deletes through a symbolic link', async () => {
    const outside = join(t.root, 'outside.txt');
    await writeFile(outside, cookieFile([cookieLine('.evil.com')]));
    await symlink(outside, join(alice.dir, '.evil.com.cookie'));
    await mkdir(join(alice.dir, '.folder.com.cookie'));
    const listed = (await vault(t, alice, 'GET', '/cookie')).json();
    expect(listed.cookies.map((c: { domain: string }) => c.domain)).not.toContain('evil.com');
    expect(listed.count).toBe(3);
    expect((await vault(t, alice, 'GET', '/cookie/evil.com', '*/*')).statusCode).toBe(404);
    expect((await vault(t, alice, 'GET', '/cookie/folder.com', '*/*')).statusCode).toBe(404);
    expect((await vault(t, alice, 'DELETE', '/cookie/evil.com')).statusCode).toBe(404);
    expect(await readFile(outside, 'utf8')).toContain('evil.com');
  });

  it('lists a file the station’s own tools wrote even when it does not parse, without an expiry', async () => {
    await writeFile(join(alice.dir, '.legacy.org.cookie'), 'not\ta cookie file\n', { mode: 0o600 });
    const listed = (await vault(t, alice, 'GET', '/cookie')).json();
    expect(listed.cookies.find((c: { domain: string }) => c.domain === 'legacy.org')).toMatchObject({
      expires_at: null,
    });
  });

  it('deletes exactly the named domain’s file', async () => {
    expect((await vault(t, alice, 'DELETE', '/cookie/notebooklm.google.com')).statusCode).toBe(404);
    const res = await vault(t, alice, 'DELETE', '/cookie/YouTube.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, domain: 'youtube.com' });
    expect((await vault(t, alice, 'GET', '/cookie/youtube.com', '*/*')).statusCode).toBe(404);
    expect((await vault(t, alice, 'DELETE', '/cookie/youtube.com')).statusCode).toBe(404);
    expect((await vault(t, alice, 'DELETE', '/cookie/.cookie.txt')).json()).toEqual({
      success: true,
      domain: null,
    });
  });

  it('serves the page to browsers, without credentials, in French or English', async () => {
    const fr = await t.app.inject({
      url: '/cookie',
      headers: { accept: 'text/html,*/*;q=0.8', 'accept-language': 'fr' },
    });
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toMatch(/^text\/html/);
    expect(fr.headers['content-security-policy']).toContain("script-src 'self'");
    expect(fr.body).toContain('<script type="module" src="/assets/cookie.js"></script>');
    expect(fr.body).toContain('Mes cookies');
    expect(fr.body).not.toMatch(/<script>(?!<\/script>)/);
    const en = await t.app.inject({ url: '/cookie?lang=en' });
    expect(en.body).toContain('How to make a cookie export');
    expect(en.body).toContain('data-labels="{&quot;connectedAs&quot;');
    const bundle = await t.app.inject({ url: '/assets/cookie.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect((await t.app.inject({ url: '/assets/%2e%2e/package.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/assets/nothing.js' })).json().code).toBe('NOT_FOUND');
  });

  it('answers 401 without credentials and 403 to a key with no user directory', async () => {
    const anonymous = await t.app.inject({ url: '/cookie', headers: { accept: 'application/json' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('PROOF_REQUIRED');
    expect((await t.app.inject({ url: '/cookie/google.com' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/cookie/google.com' })).statusCode).toBe(401);
    expect((await vault(t, newKey(), 'GET', '/cookie')).statusCode).toBe(403);
    expect((await vault(t, alice, 'GET', `/cookie?npub=${bob.npub}`)).statusCode).toBe(403);
  });
});

describe('the vault wants proof of possession, not a relay-observed event', () => {
  let relay: EmbeddedRelay;
  let client: RelayClient;
  let t: TestApp;
  let streams: Subscription;
  let carol: Owner;

  beforeAll(async () => {
    relay = await startTestRelay();
    client = await connectedClient(relay.url, Math.floor(Date.now() / 1000) - 60);
    t = await buildTestApp({ overrides: { relay: client } });
    streams = startStreams({ client, auth: t.deps.auth });
    carol = await register(t, 'carol@example.org');
    const { challenge } = (await t.app.inject({ url: `/api/nip42/challenge?npub=${carol.npub}` })).json();
    await publish(
      relay.url,
      signEvent(carol, {
        kind: 22242,
        tags: [
          ['relay', relay.url],
          ['challenge', challenge],
        ],
      }),
    );
    await waitFor(() => t.deps.auth.cache.lookup(carol.hex, '127.0.0.1', 0) !== null);
  });
  afterAll(async () => {
    streams.unsubscribe();
    await t.close();
    await client.stop();
    await relay.close();
  });

  it('accepts an upload authorised by the relay-observed event (docs/auth-model.md, method c)', async () => {
    const res = await postFile(t, carol, cookieFile([cookieLine('.youtube.com')]), { auth: 'none' });
    expect(res.statusCode).toBe(200);
    expect(res.json().file_path).toBe('carol@example.org/.youtube.com.cookie');
  });

  it('refuses listing, reading and deleting on that event alone', async () => {
    const npub = `?npub=${carol.npub}`;
    const requests = [
      { method: 'GET' as const, url: `/cookie${npub}`, headers: { accept: 'application/json' } },
      { method: 'GET' as const, url: `/cookie/youtube.com${npub}` },
      { method: 'DELETE' as const, url: `/cookie/youtube.com${npub}` },
    ];
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('PROOF_REQUIRED');
    }
    expect((await vault(t, carol, 'GET', '/cookie/youtube.com', '*/*')).statusCode).toBe(200);
  });
});
