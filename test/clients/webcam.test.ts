import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/temp.js';
import { launchWithCamera, qrVideo } from '../pages/fake-camera.js';
import { gotoPage, startPageServer, type PageServer } from '../pages/harness.js';

/** WebM files start with the EBML magic number. */
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/**
 * The station's webcam page (UPassport's GET /webcam): record with the camera (Chromium's fake one), sign in
 * with a typed nsec, upload to /api/fileupload with progress, and show the gateway link of the new file.
 */
describe('the webcam page', () => {
  let s: PageServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const video = await qrVideo(dir.path, ['UPlanet', 'webcam']);
    s = await startPageServer({}, () => launchWithCamera(video));
  });
  afterAll(async () => {
    await s?.close();
    await cleanup?.();
  });

  it('is served in French and English with its one module', async () => {
    for (const [lang, upload] of [
      ['fr', 'Envoyer dans mon uDRIVE'],
      ['en', 'Upload to my uDRIVE'],
    ]) {
      const res = await s.t.app.inject({ url: `/webcam?lang=${lang}`, headers: { host: '127.0.0.1:54321' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<html lang="${lang}">`);
      expect(res.body).toContain(upload);
      // The gateway at the host the page was asked by (here the station's own loopback address).
      expect(res.body).toContain(`data-gateway="${s.t.config.ipfsGateway}"`);
      expect(res.body.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/assets/webcam.js">']);
    }
  });

  it('records, uploads with progress to the uDRIVE, and links the video on the gateway', async () => {
    const created = await s.t.deps.users.create({ email: 'filmer@example.org' });
    const { page, problems, close } = await openPage(s.browser, {
      init: (context) => context.grantPermissions(['camera', 'microphone'], { origin: s.base }),
    });
    try {
      await gotoPage(page, `${s.base}/webcam?lang=en`, 'webcam-app');
      expect(await page.isDisabled('#upload-button')).toBe(true);

      await page.fill('#nsec', nip19.nsecEncode(created.keys.nostr.secretKey));
      await page.click('#nsec-form button[type="submit"]');
      await expect.poll(() => page.textContent('#key-status')).toContain('Connected as');

      await page.click('#camera-start');
      await page.waitForSelector('#record-start:not([disabled])');
      expect(await page.isVisible('#camera')).toBe(true);
      await page.click('#record-start');
      const bytes = async () => Number(await page.getAttribute('#record-status', 'data-bytes'));
      await expect.poll(bytes, { timeout: 15_000 }).toBeGreaterThan(0);
      await page.click('#record-stop');
      await page.waitForSelector('#playback:not([hidden])');
      await page.waitForSelector('#upload-button:not([disabled])');

      const answered = page.waitForResponse((response) => response.url() === `${s.base}/api/fileupload`);
      await page.click('#upload-button');
      const answer = (await (await answered).json()) as { new_cid: string; fileName: string };
      const link = page.locator('#upload-link');
      await link.waitFor({ timeout: 15_000 });
      expect(await page.getAttribute('#upload-progress', 'value')).toBe('100');
      // UPassport's convention, which the station's answer keeps: <gateway>/ipfs/<new_cid>/<fileName>.
      expect(answer.fileName).toMatch(/^webcam-\d{8}T\d{6}\.webm$/);
      const href = (await link.getAttribute('href'))!;
      expect(href).toBe(`${s.t.config.ipfsGateway}/ipfs/${answer.new_cid}/${answer.fileName}`);

      const videos = join(s.t.config.dataRoot, 'nostr', 'filmer@example.org', 'APP', 'uDRIVE', 'Videos');
      const names = await readdir(videos);
      expect(names).toEqual([answer.fileName]);
      const content = await readFile(join(videos, names[0]!));
      expect(content.subarray(0, 4)).toEqual(EBML);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
