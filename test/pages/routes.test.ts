import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const PAGES = [
  { path: '/scan', bundle: 'scan', app: 'scan-app', en: 'Scan', fr: 'Scanner' },
  { path: '/g1', bundle: 'g1', app: 'g1-app', en: 'Registration', fr: 'Inscription' },
  { path: '/nostr', bundle: 'nostr', app: 'nostr-app', en: 'Geo-messages', fr: 'Géo-messages' },
  { path: '/webcam', bundle: 'webcam', app: 'webcam-app', en: 'Webcam', fr: 'Webcam' },
  // Served by the cookie routes (HTML unless JSON is asked for), from the same layout.
  { path: '/cookie', bundle: 'cookie', app: 'cookie-app', en: 'My cookies', fr: 'Mes cookies' },
];

/** The page shells as served: language, menu, one module script, nothing inline the CSP would refuse. */
describe('the interactive pages as served', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it.each(PAGES)('$path: French by default, English on request, its module and the menu', async (spec) => {
    const fr = await get(spec.path);
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(fr.headers['cache-control']).toBe('no-store');
    expect(fr.headers['content-security-policy']).toContain("script-src 'self'");
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain(`<h1>${spec.fr}</h1>`);
    expect(fr.body).toContain('name="viewport"');
    for (const href of ['/', '/scan', '/g1', '/nostr', '/webcam', '/cookie'])
      expect(fr.body).toContain(`href="${href}"`);
    expect(fr.body).toMatch(new RegExp(`href="${spec.path}" aria-current="page"`));

    // One script, the bundled module; no inline code and no inline handlers.
    expect(fr.body.match(/<script\b[^>]*>/g)).toEqual([
      `<script type="module" src="/assets/${spec.bundle}.js">`,
    ]);
    expect(fr.body).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    expect(fr.body).not.toMatch(/\son[a-z]+=/i);
    expect(fr.body).toMatch(new RegExp(`id="${spec.app}" data-lang="fr" data-labels="\\{&quot;`));

    const en = await get(spec.path, { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain(`<h1>${spec.en}</h1>`);
    expect((await get(`${spec.path}?lang=fr`, { 'accept-language': 'en' })).body).toContain(
      '<html lang="fr">',
    );

    const bundle = await get(`/assets/${spec.bundle}.js`);
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
  });

  it('the geo-message page names the station relay; the position fields are on both geo pages', async () => {
    // At the host the page was asked by (a phone on the LAN), never a loopback address of the station's.
    const nostr = (await get('/nostr', { host: '192.0.2.7:54321' })).body;
    const relay = new URL(t.deps.relay.url);
    expect(nostr).toContain(`data-configured="ws://192.0.2.7:${relay.port}"`);
    for (const path of ['/nostr', '/g1']) {
      const body = (await get(path)).body;
      for (const id of ['lat', 'lon', 'locate', 'umap']) expect(body).toContain(`id="${id}"`);
    }
  });

  it('a language value that is not a short string is refused as malformed input', async () => {
    const res = await get(`/scan?lang=${'x'.repeat(40)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
  });
});
