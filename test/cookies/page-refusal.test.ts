import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { postForm, register, type Owner } from '../helpers/multipart.js';
import { gotoPage, startPageServer, type PageServer } from '../pages/harness.js';
import { cookieFile, cookieLine } from './fixtures.js';

/** The first bytes of a JPEG photo (SOI, JFIF APP0), then noise: what a phone's picker hands over. */
const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(4096, 0x5a),
]);

/** A photo picked by mistake on the cookie page, and the vault on a phone, in headless Chromium. */
describe('the cookie page refuses what is not a cookie file', () => {
  let s: PageServer;
  let owner: Owner;

  beforeAll(async () => {
    s = await startPageServer();
    owner = await register(s.t, 'phone@example.org');
  });
  afterAll(() => s?.close());

  const driveFiles = async () =>
    (await readdir(join(owner.dir, 'APP', 'uDRIVE'), { recursive: true })).filter((name) =>
      /\.(jpe?g|txt)$/i.test(name),
    );

  async function connect(page: Page, lang: 'fr' | 'en'): Promise<void> {
    await gotoPage(page, `${s.base}/cookie?lang=${lang}`, 'cookie-app');
    await page.fill('#nsec', nip19.nsecEncode(owner.sk));
    await page.click('#nsec-form button[type="submit"]');
    await page.waitForSelector('#forget-key', { state: 'visible' });
  }

  it('shows why a .jpg is refused, points to the drive page and sends nothing', async () => {
    const { page, problems, close } = await openPage(s.browser);
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') uploads.push(request.url());
    });
    try {
      await connect(page, 'en');
      await page.setInputFiles('#cookie-file', {
        name: 'IMG_2041.jpg',
        mimeType: 'image/jpeg',
        buffer: PHOTO,
      });
      await page.waitForSelector('#upload-result [data-outcome="NOT_A_COOKIE_FILE"]');
      const text = (await page.textContent('#upload-result')) ?? '';
      expect(text).toContain('This file is not a cookie export');
      expect(await page.getAttribute('#upload-result a', 'href')).toBe('/drive?lang=en');
      expect(await page.inputValue('#cookie-file')).toBe('');

      // Submitting anyway sends nothing either: the choice was cleared. The list's reload, after it, is
      // what the page does next on a click.
      await page.click('#upload-button');
      const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/cookie');
      await page.click('#refresh-list');
      await listed;
      expect(uploads).toEqual([]);
      expect(await driveFiles()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the vault within a 360 px wide screen', async () => {
    const { page, problems, close } = await openPage(s.browser, { locale: 'fr-FR' });
    try {
      await page.setViewportSize({ width: 360, height: 740 });
      await connect(page, 'fr');
      for (const domain of ['.youtube.com', '.leboncoin.fr', '.notebooklm.google.com']) {
        await page.setInputFiles('#cookie-file', {
          name: 'cookies.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from(cookieFile([cookieLine(domain, { expires: 1_900_000_000 })])),
        });
        await page.click('#upload-button');
        await page.waitForSelector(`tr[data-domain="${domain.split('.').slice(-2).join('.')}"]`);
      }
      // document.documentElement.scrollWidth: how wide the page is laid out.
      const width = await page.$eval('html', (root) => root.scrollWidth);
      expect(width).toBeLessThanOrEqual(360);
      // Nor does it scroll sideways inside its own box: the rows are stacked.
      const box = await page.$eval('#cookie-table', (table) => {
        const scroller = table.parentElement!;
        return {
          right: table.getBoundingClientRect().right,
          overflow: scroller.scrollWidth - scroller.clientWidth,
        };
      });
      expect(box.right).toBeLessThanOrEqual(360);
      expect(box.overflow).toBeLessThanOrEqual(0);
      // Stacked, each value keeps its column's name beside it.
      const cell = await page.$eval('tr[data-domain="youtube.com"] td', (td) => td.dataset.label);
      expect(cell).toBe('Domaine');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('has the station refuse a non-cookie file the page marks cookie_only (400), filing nothing', async () => {
    const res = await postForm(
      s.t,
      '/api/fileupload',
      [
        { name: 'npub', value: owner.npub },
        { name: 'cookie_only', value: 'true' },
        { name: 'file', value: PHOTO, filename: 'IMG_2041.jpg', type: 'image/jpeg' },
      ],
      owner,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: expect.stringContaining('not a Netscape cookie file'),
      code: 'NOT_A_COOKIE_FILE',
    });
    expect(await driveFiles()).toEqual([]);
    // Without the mark, the same photo still goes to the drive, as station scripts expect.
    const toDrive = await postForm(
      s.t,
      '/api/fileupload',
      [
        { name: 'npub', value: owner.npub },
        { name: 'file', value: PHOTO, filename: 'IMG_2041.jpg', type: 'image/jpeg' },
      ],
      owner,
    );
    expect(toDrive.statusCode).toBe(200);
    expect(await driveFiles()).toEqual([join('Images', 'IMG_2041.jpg')]);
  });
});
