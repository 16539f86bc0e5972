import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installNostrExtension, openPage } from '../helpers/browser.js';
import { gotoPage, startPageServer, type PageServer } from '../pages/harness.js';
import { cookieFile, cookieLine } from './fixtures.js';

interface Registered {
  email: string;
  nsec: string;
  npub: string;
}

/** The cookie page end to end: a real browser, the real service on a loopback port, files on disk. */
describe('the cookie page in headless Chromium', () => {
  let s: PageServer;
  let base: string;

  beforeAll(async () => {
    s = await startPageServer();
    base = s.base;
  });
  afterAll(() => s?.close());

  async function registerUser(email: string): Promise<Registered> {
    const res = await fetch(`${base}/g1nostr`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, lang: 'en' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Registered;
  }

  const userDir = (email: string) => s.t.deps.users.dirFor(email);

  it('connects a typed nsec, uploads a cookie export with progress, shows the answer and the list', async () => {
    const user = await registerUser('page@example.org');
    const { page, problems, close } = await openPage(s.browser);
    const sent: string[] = [];
    page.on('request', (request) =>
      sent.push(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`),
    );
    try {
      await gotoPage(page, `${base}/cookie?lang=en`, 'cookie-app');
      expect(await page.textContent('summary')).toContain('How to make a cookie export');

      await page.fill('#nsec', user.nsec);
      await page.click('#nsec-form button[type="submit"]');
      await page.waitForSelector('#forget-key', { state: 'visible' });
      expect(await page.textContent('#key-status')).toContain(user.npub.slice(0, 12));
      expect(await page.inputValue('#nsec')).toBe('');
      await page.waitForSelector('#cookie-empty', { state: 'visible' });

      const content = cookieFile([
        cookieLine('.youtube.com', { expires: 1_900_000_000 }),
        `#HttpOnly_${cookieLine('www.youtube.com', { expires: 0 })}`,
      ]);
      await page.setInputFiles('#cookie-file', {
        name: 'youtube_cookies.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(content),
      });
      await page.click('#upload-button');
      await page.waitForSelector('#upload-result [data-outcome="success"]');
      // The page labels the domain itself: the station's `Domain: youtube.com` is not shown twice.
      const answer = await page.$$eval('#upload-result dt, #upload-result dd', (nodes) =>
        nodes.map((node) => node.textContent ?? ''),
      );
      expect(answer.slice(answer.indexOf('Domain'), answer.indexOf('Domain') + 2)).toEqual([
        'Domain',
        'youtube.com',
      ]);
      expect(await page.textContent('#upload-result')).not.toContain('Domain:');
      expect(await page.textContent('#upload-result')).toContain('page@example.org/.youtube.com.cookie');
      expect(await page.getAttribute('#upload-progress', 'value')).toBe('100');

      const row = await page.waitForSelector('tr[data-domain="youtube.com"]');
      const cells = await row.$$eval('td', (tds) => tds.map((td) => td.textContent ?? ''));
      expect(cells[0]).toBe('youtube.com');
      expect(cells[2]).toContain('2030');

      const stored = join(userDir(user.email), '.youtube.com.cookie');
      expect(await readFile(stored, 'utf8')).toBe(content);
      expect((await stat(stored)).mode & 0o777).toBe(0o600);
      expect(problems).toEqual([]);
      // The typed key never left the page: not in a URL, a header or a body.
      expect(sent.length).toBeGreaterThan(2);
      expect(sent.filter((line) => line.includes(user.nsec))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('works with a NIP-07 extension, shows refusals and file names as text, deletes in two clicks', async () => {
    const user = await registerUser('extension@example.org');
    const secret = nip19.decode(user.nsec).data as Uint8Array;
    let signatures = 0;
    const { page, problems, close } = await openPage(s.browser, {
      locale: 'fr-FR',
      init: (context) => installNostrExtension(context, secret, () => (signatures += 1)),
    });
    try {
      await gotoPage(page, `${base}/cookie`, 'cookie-app');
      expect(await page.textContent('h1')).toBe('Mes cookies');
      await page.click('#use-extension');
      await page.waitForSelector('#forget-key', { state: 'visible' });
      expect(await page.textContent('#key-status')).toContain('Connecté en tant que');

      const upload = async (name: string, content: string, outcome: string) => {
        await page.setInputFiles('#cookie-file', {
          name,
          mimeType: 'text/plain',
          buffer: Buffer.from(content),
        });
        await page.click('#upload-button');
        await page.waitForSelector(`#upload-result [data-outcome="${outcome}"]`);
        return (await page.textContent('#upload-result')) ?? '';
      };

      const refused = await upload(
        'all.txt',
        cookieFile([cookieLine('accounts.google.com'), cookieLine('.youtube.com')]),
        'MULTI_DOMAIN_COOKIES',
      );
      expect(refused).toContain('google.com, youtube.com');
      expect(await readFile(join(userDir(user.email), '.google.com.cookie')).catch(() => null)).toBeNull();

      // A file that is no cookie export goes nowhere, whatever its name (see page-refusal.test.ts).
      const hostile = '<img src=x onerror="window.__pwned=1">.txt';
      const notSent = await upload(hostile, 'A note, not cookies.\n', 'NOT_A_COOKIE_FILE');
      expect(notSent).toContain('la page uDRIVE');
      expect(await page.$$('#upload-result img')).toEqual([]);
      expect(
        await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
      ).toBeUndefined();

      await upload('leboncoin.txt', cookieFile([cookieLine('.leboncoin.fr')]), 'success');
      await page.waitForSelector('tr[data-domain="leboncoin.fr"]');
      const button = 'tr[data-domain="leboncoin.fr"] button[data-action="remove"]';
      await page.click(button);
      expect(await page.textContent(button)).toBe('Confirmer la suppression');
      await page.click(button);
      await page.waitForSelector('tr[data-domain="leboncoin.fr"]', { state: 'detached' });
      expect(await readFile(join(userDir(user.email), '.leboncoin.fr.cookie')).catch(() => null)).toBeNull();

      expect(signatures).toBeGreaterThanOrEqual(6);
      // The one refusal above is the only error the page met.
      expect(problems).toEqual([
        `HTTP 400: ${base}/api/fileupload`,
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
    } finally {
      await close();
    }
  });
});
