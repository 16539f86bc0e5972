import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installNostrExtension, openPage } from '../helpers/browser.js';
import {
  PNG_1x1,
  startExplorerStation,
  type ExplorerStation,
  type Member,
} from '../drive/explorer-station.js';
import { imageLoaded } from '../drive/explorer-station.js';
import { newKey } from '../helpers/nostr.js';
import { gotoPage, unexpected } from './harness.js';

/** The `/drive` page, served by the API under the station's CSP: the signer's own drive, read from `/api/drive`. */
describe('the drive page in headless Chromium', () => {
  let s: ExplorerStation;
  let carol: Member;

  beforeAll(async () => {
    s = await startExplorerStation();
    carol = await s.register('carol@example.org');
    await s.upload(carol, 'photo.png', PNG_1x1);
  });
  afterAll(() => s?.close());

  it('signs in with a typed nsec, lists the drive with a preview, uploads with progress and deletes', async () => {
    const { page, problems, close } = await openPage(s.browser);
    try {
      await gotoPage(page, `${s.api}/drive?lang=en`, 'drive-app');
      expect(await page.textContent('h1')).toBe('My uDRIVE');
      expect(await page.isDisabled('#upload-button')).toBe(true);
      await page.fill('#nsec', carol.nsec);
      await page.click('#nsec-form button[type="submit"]');
      await page.waitForSelector('li[data-path="Images/photo.png"]');
      // Thumbnails come from the gateway, which the page's img-src allows.
      await imageLoaded(page, 'Images/photo.png');
      const first = await s.listing(carol);
      expect(await page.textContent('#drive-root')).toBe(first.root_cid);
      expect(await page.getAttribute('#open-explorer', 'href')).toBe(
        `${s.gateway.url}/ipfs/${first.root_cid}/_index.html`,
      );

      await page.setInputFiles('#drive-file', {
        name: 'song.mp3',
        mimeType: 'audio/mpeg',
        buffer: Buffer.from('ID3 not really a song'),
      });
      await page.click('#upload-button');
      await page.waitForSelector('li[data-path="Music/song.mp3"]');
      expect(await page.getAttribute('#upload-progress', 'value')).toBe('100');
      expect(await page.textContent('#upload-result [data-outcome="success"]')).toContain('File saved');
      const second = await s.listing(carol);
      expect(second.files.map((f) => f.path)).toEqual(['Images/photo.png', 'Music/song.mp3']);
      await page.waitForSelector(`#drive-root:text("${second.root_cid}")`);

      const row = 'li[data-path="Music/song.mp3"]';
      await page.click(`${row} [data-action="remove"]`);
      await page.click(`${row} [data-action="remove"]`);
      await page.waitForSelector(row, { state: 'detached' });
      expect((await s.listing(carol)).files.map((f) => f.path)).toEqual(['Images/photo.png']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('says so when the signer has no drive here (NIP-07 extension)', async () => {
    const { page, problems, close } = await openPage(s.browser, {
      init: (context) => installNostrExtension(context, newKey().sk),
    });
    try {
      await gotoPage(page, `${s.api}/drive?lang=en`, 'drive-app');
      await page.click('#use-extension');
      await page.waitForSelector('#page-error:has-text("no uDRIVE on this station")');
      expect(await page.$$('li.drive-file')).toEqual([]);
      // The 404 of /api/drive is the answer shown, not a fault.
      expect(unexpected(problems, [/\/api\/drive/, /status of 404/])).toEqual([]);
    } finally {
      await close();
    }
  });
});
