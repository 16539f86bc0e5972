import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../helpers/multipart.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';
import type { TestApp } from '../helpers/app.js';
import { startCrossOrigin, type CrossOrigin, type OtherSite } from './cross-origin.js';

/**
 * Browser clients on other origins, on the wire: UPlanet apps served by the IPFS gateway or by the operator's
 * other sites (CORS_ORIGINS) call the station with NIP-98; anybody's page may read the public data; no other
 * site may use the ambient relay-observed login of a browser's address. (`cors-browser.test.ts`: the same
 * in Chromium.)
 */
describe('cross-origin clients', () => {
  let x: CrossOrigin;
  let t: TestApp;
  let allowed: OtherSite;
  let foreign: OtherSite;
  let alice: TestKey;
  beforeAll(async () => {
    x = await startCrossOrigin();
    ({ t, allowed, foreign, alice } = x);
  });
  afterAll(() => x?.close());

  const preflight = (url: string, origin: string, headers = 'authorization') =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': headers },
    });

  describe('headers', () => {
    it('public reads: any origin, preflight answered, no credentials', async () => {
      const res = await preflight('/api/nip42/challenge?npub=x', 'https://anyone.example', 'content-type');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      for (const url of ['/health', '/api/umap/geolinks?lat=1&lon=1', '/assets/scan.js', '/check_revenue']) {
        const get = await t.app.inject({ url, headers: { origin: 'https://anyone.example' } });
        expect(get.headers['access-control-allow-origin'], url).toBe('*');
      }
    });

    it("authenticated routes: the station's origins are reflected, with Authorization and Content-Type", async () => {
      for (const origin of [allowed.origin, 'https://station.example', 'https://ipfs.station.example']) {
        const res = await preflight('/api/me', origin, 'authorization,content-type');
        expect(res.statusCode, origin).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-headers']).toMatch(/Authorization.*Content-Type/);
        expect(res.headers['access-control-allow-methods']).toContain('POST');
        expect(res.headers.vary).toContain('Origin');
      }
    });

    it('authenticated routes, and public ones asked with a credential, give a foreign origin nothing', async () => {
      for (const url of ['/api/me', '/api/upload', '/g1nostr', '/api/test-nostr']) {
        const res = await preflight(url, foreign.origin);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
      const signed = await t.app.inject({
        url: '/api/me',
        headers: {
          origin: foreign.origin,
          authorization: nip98Header(alice, 'http://localhost/api/me', 'GET'),
        },
      });
      expect(signed.statusCode).toBe(200);
      expect(signed.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('the relay-observed login against other sites (CSRF)', () => {
    const me = (origin?: string) =>
      t.app.inject({ url: `/api/me?npub=${alice.npub}`, headers: origin ? { origin } : {} });

    it("serves the station's own origins and requests without Origin", async () => {
      for (const origin of [
        undefined,
        'https://station.example',
        'https://ipfs.station.example',
        allowed.origin,
      ]) {
        const res = await me(origin);
        expect(res.statusCode, origin).toBe(200);
        expect(res.json()).toMatchObject({ hex: alice.hex, auth_method: 'relay' });
      }
      // The API itself, under another loopback spelling of the same port.
      const local = await t.app.inject({
        url: `/api/me?npub=${alice.npub}`,
        headers: { host: '127.0.0.1:54321', origin: 'http://localhost:54321' },
      });
      expect(local.statusCode).toBe(200);
    });

    it.each(['https://attacker.example', 'http://127.0.0.1:1', 'null', 'http://127.attacker.example'])(
      'refuses %s with 403 ORIGIN_NOT_ALLOWED',
      async (origin) => {
        const res = await me(origin);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: expect.stringContaining('NIP-98'), code: 'ORIGIN_NOT_ALLOWED' });
      },
    );

    it('refuses a cross-site upload before anything is staged', async () => {
      const form = multipart([
        { name: 'npub', value: alice.npub },
        { name: 'file', value: Buffer.alloc(64 * 1024, 7), filename: 'x.bin' },
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        payload: form.body,
        headers: { 'content-type': form.contentType, origin: foreign.origin },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ORIGIN_NOT_ALLOWED');
    });

    it('GET /: a page of another site never gets the e-mails, even from a swarm address', async () => {
      const get = (origin?: string) =>
        t.app.inject({
          url: '/?lat=43.6&lon=1.44',
          remoteAddress: '127.0.0.1',
          headers: origin ? { origin } : {},
        });
      expect((await get()).body).toContain('alice@example.org');
      const crossSite = await get(foreign.origin);
      expect(crossSite.statusCode).toBe(200);
      expect(crossSite.headers['access-control-allow-origin']).toBe('*');
      expect(crossSite.body).not.toContain('alice@example.org');
    });
  });
});
