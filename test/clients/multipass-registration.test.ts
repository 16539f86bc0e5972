import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * UPassport's MULTIPASS page (templates/g1nostr.html before /g1/onboard): `fetch('/g1nostr', {method: 'POST',
 * body: new FormData(form)})` with the hidden fields lang, lat ("0.00"), lon, the typed email and empty salt
 * and pepper; a success is shown as a page, a failure as `err.error`. Other MULTIPASS tools post the same
 * fields urlencoded with format=json, and up to 19 fields (birth data, pass_code…) that this station ignores.
 */
describe('MULTIPASS registration clients', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  /** The page's form, as `new FormData(form)` sends it (multipart, fields in document order). */
  function multipassForm(email: string, extra: Record<string, string> = {}): FormData {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      lang: 'fr',
      lat: '0.00',
      lon: '0.00',
      email,
      salt: '',
      pepper: '',
    }))
      form.append(name, value);
    for (const [name, value] of Object.entries(extra)) form.append(name, value);
    return form;
  }
  const post = (body: FormData | URLSearchParams, query = '') =>
    fetch(`${base}/g1nostr${query}`, { method: 'POST', body });

  it('multipart FormData without format: the identity as JSON, position kept, nothing cached', async () => {
    const res = await post(multipassForm('Zoe@Example.org'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ email: 'zoe@example.org', lat: 0, lon: 0 });
    expect(body.npub).toMatch(/^npub1/);
    expect(body.g1pub).toMatch(/^g1/);
    expect(body.salt).toMatch(/^[A-Za-z0-9]{24}$/);
    const gps = await readFile(join(t.config.dataRoot, 'nostr', 'zoe@example.org', 'GPS'), 'utf8');
    expect(gps.trim()).toBe('LAT=0.00; LON=0.00;');
  });

  it('format=html (a form field): the keys as a French page the client can show', async () => {
    const res = await post(multipassForm('ana@example.org', { format: 'html' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const user = await t.app.users.findByEmail('ana@example.org');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<h1>Vos clés</h1>');
    expect(html).toContain(user!.npub);
    expect(html).toContain(user!.g1pub!);
    expect(html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="QR code/);
    expect(html).toMatch(/<dd class="mono secret">nsec1[a-z0-9]+<\/dd>/);
    // The page is served under the strict CSP: no script at all.
    expect(html).not.toMatch(/<script/i);
  });

  it('format=html in the query of an urlencoded post, in English from the form language', async () => {
    const form = new URLSearchParams({ email: 'ben@example.org', lang: 'en', lat: '48.8566', lon: '2.3522' });
    const res = await post(form, '?format=html');
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Your keys</h1>');
    expect(html).toContain('Your UMAP cell: <span class="mono">48.86, 2.35</span>');
  });

  it('accepts the whole UPassport field set (19 fields), ignoring what it does not use', async () => {
    const extra = {
      format: 'json',
      pass_code: '',
      birth_datetime: '',
      birth_place: '',
      birth_lat: '',
      birth_lon: '',
      birth_weight: '',
      birth_height: '',
      current_height: '',
      conception_datetime: '',
      conception_place: '',
      polarity: '0',
      pre_stretched: 'true',
    };
    const res = await post(multipassForm('cy@example.org', extra));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email: string }).email).toBe('cy@example.org');
  });

  it('a failure carries error (what the page shows) beside detail and code, also as multipart', async () => {
    await post(multipassForm('dup@example.org'));
    const again = await post(multipassForm('dup@example.org', { format: 'html' }));
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.json()).toEqual({
      detail: expect.any(String),
      code: 'USER_EXISTS',
      error: 'USER_EXISTS',
    });

    const bad = await post(new URLSearchParams({ email: 'not an e-mail' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      detail: expect.any(String),
      code: 'INVALID_EMAIL',
      error: 'INVALID_EMAIL',
    });

    const missing = await post(new URLSearchParams({ lang: 'fr' }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'VALIDATION_FAILED' });
  });

  it('refuses a file part, and raw credentials the client wanted stretched by the server', async () => {
    const withFile = multipassForm('file@example.org');
    withFile.append('photo', new Blob([Buffer.alloc(2048, 1)], { type: 'image/jpeg' }), 'me.jpg');
    const res = await post(withFile);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'UNEXPECTED_FILE', error: 'UNEXPECTED_FILE' });

    const raw = multipassForm('raw@example.org', { pre_stretched: 'false' });
    raw.set('salt', 'my-salt');
    raw.set('pepper', 'my-pepper');
    const refused = await post(raw);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'PRE_STRETCH_UNSUPPORTED' });
    expect(await t.app.users.findByEmail('raw@example.org')).toBeNull();
    expect(await t.app.users.findByEmail('file@example.org')).toBeNull();
  });
});
