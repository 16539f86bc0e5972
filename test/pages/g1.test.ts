import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { expectUserDirectory, gotoPage, startPageServer, unexpected, type PageServer } from './harness.js';

// docs/api-contract.md §4 vectors for SALT = PEPPER = "coucou" on the ORIGIN network (the test default).
const COUCOU_HEX = '9da638f3ff87f550efb32ca0d363f53047ead410e6748c19eb8ccb81ba3aff27';
const COUCOU_WALLET = 'g1P5kZ1PdDoeBVuMEvtDMm7Bfj8G6Xb9f9KrYEFYyMFj3qQ6T';

/** The registration page (/g1) in headless Chromium against the service on a loopback port. */
describe('the registration page', () => {
  let s: PageServer;
  beforeAll(async () => {
    s = await startPageServer();
  });
  afterAll(() => s?.close());

  const userDir = (email: string) => s.t.deps.users.dirFor(email);

  it('registers with salt, pepper and typed coordinates: keys, UMAP cell, user directory', async () => {
    const { page, problems, close } = await openPage(s.browser);
    const sent: Array<{ method: string; url: string; body: string }> = [];
    page.on('request', (request) =>
      sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }),
    );
    try {
      await gotoPage(page, `${s.base}/g1?lang=en`, 'g1-app');
      expect(await page.textContent('h1')).toBe('Registration');
      await page.fill('#email', 'Marie@Example.org');
      await page.click('#credentials summary');
      await page.fill('#salt', 'coucou');
      await page.fill('#pepper', 'coucou');
      await page.fill('#lat', '43.6047');
      await page.fill('#lon', '1.4442');
      expect(await page.textContent('#umap')).toBe('UMAP cell 43.60, 1.44 · SECTOR 43.6_1.4 · REGION 43_1');
      await page.click('#register-button');

      const card = await page.waitForSelector('.identity');
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('marie@example.org');
      expect(text).toContain(COUCOU_HEX);
      expect(text).toContain(COUCOU_WALLET);
      expect(text).toContain('they will never be shown again');
      const cell = await page.$$eval('dl.cell dd', (dds) => dds.map((dd) => dd.textContent));
      expect(cell).toEqual(['43.60, 1.44', '43.6_1.4', '43_1']);
      // The credentials left the form once the card holds them.
      expect(await page.inputValue('#salt')).toBe('');
      expect(await page.inputValue('#pepper')).toBe('');

      const dir = userDir('marie@example.org');
      await expectUserDirectory(dir);
      expect((await readFile(join(dir, 'HEX'), 'utf8')).trim()).toBe(COUCOU_HEX);
      expect((await readFile(join(dir, 'G1PUBNOSTR'), 'utf8')).trim()).toBe(COUCOU_WALLET);
      expect(await readFile(join(dir, 'GPS'), 'utf8')).toBe('LAT=43.60; LON=1.44;\n');
      const npub = (await readFile(join(dir, 'NPUB'), 'utf8')).trim();
      expect(await page.getAttribute('canvas.qr', 'data-qr')).toBe(npub);

      // One registration request, with the rounded position; no other request carried the pepper.
      const posts = sent.filter((request) => request.method === 'POST');
      expect(posts.map((request) => request.url)).toEqual([`${s.base}/g1nostr`]);
      expect(JSON.parse(posts[0]!.body)).toMatchObject({ lat: 43.6, lon: 1.44, lang: 'en', salt: 'coucou' });
      expect(sent.filter((request) => request.method !== 'POST' && request.url.includes('coucou'))).toEqual(
        [],
      );

      await page.click('[data-action="hide-keys"]');
      expect(await page.textContent('#identity')).not.toContain(COUCOU_HEX);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('uses the browser position, in French, and registers with random credentials', async () => {
    const { page, problems, close } = await openPage(s.browser, {
      locale: 'fr-FR',
      init: async (context) => {
        await context.grantPermissions(['geolocation']);
        await context.setGeolocation({ latitude: -21.1151, longitude: 55.5364 });
      },
    });
    try {
      await gotoPage(page, `${s.base}/g1`, 'g1-app');
      expect(await page.getAttribute('html', 'lang')).toBe('fr');
      await page.click('#locate');
      await page.waitForSelector('#umap[data-lat]');
      expect(await page.inputValue('#lat')).toBe('-21.12');
      expect(await page.inputValue('#lon')).toBe('55.54');
      expect(await page.textContent('#umap')).toBe(
        'Case UMAP -21.12, 55.54 · SECTOR -21.1_55.5 · REGION -21_55',
      );
      await page.fill('#email', 'reunion@example.org');
      await page.click('#register-button');
      await page.waitForSelector('.identity');
      expect(await page.textContent('.identity .warning')).toContain('ne seront plus jamais affichées');
      const salt = await page.$$eval('dl.keys dd', (dds) => dds[6]?.textContent ?? '');
      expect(salt).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(await readFile(join(userDir('reunion@example.org'), 'GPS'), 'utf8')).toBe(
        'LAT=-21.12; LON=55.54;\n',
      );
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('explains refusals as text: salt without pepper, bad coordinates, an e-mail already taken', async () => {
    await s.t.deps.users.create({ email: 'taken@example.org' });
    const { page, problems, close } = await openPage(s.browser);
    try {
      await gotoPage(page, `${s.base}/g1?lang=en`, 'g1-app');
      await page.fill('#email', 'taken@example.org');
      await page.click('#credentials summary');
      await page.fill('#salt', 'only-salt');
      await page.click('#register-button');
      expect(await page.textContent('#page-error')).toBe('Give both the salt and the pepper, or neither.');

      await page.fill('#salt', '');
      await page.fill('#lat', '123');
      await page.fill('#lon', '1');
      expect(await page.getAttribute('#umap', 'class')).toContain('error');
      await page.click('#register-button');
      expect(await page.textContent('#page-error')).toContain('Latitude within -90…90');

      await page.fill('#lat', '');
      await page.fill('#lon', '');
      await page.click('#register-button');
      await page.locator('#page-error', { hasText: /^Failed: / }).waitFor();
      expect(await page.textContent('#page-error')).toBe('Failed: taken@example.org is already registered.');
      expect(await page.$('.identity')).toBeNull();
      expect(unexpected(problems, [/HTTP 409: .*\/g1nostr$/, /status of 409/])).toEqual([]);
      expect((await stat(userDir('taken@example.org'))).isDirectory()).toBe(true);
    } finally {
      await close();
    }
  });
});
