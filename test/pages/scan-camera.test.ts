import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { newKey } from '../helpers/nostr.js';
import { tempDir } from '../helpers/temp.js';
import { qrVideo, launchWithCamera } from './fake-camera.js';
import { gotoPage, startPageServer, type PageServer } from './harness.js';

const WALLET = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';

/** The scan page's camera loop, with Chromium's fake camera playing a video of two QR codes in turn. */
describe('the scan page with a camera', () => {
  let s: PageServer;
  let cleanup: () => Promise<void>;
  const member = newKey();

  beforeAll(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const video = await qrVideo(dir.path, [member.npub, WALLET]);
    s = await startPageServer({}, () => launchWithCamera(video));
  });
  afterAll(async () => {
    await s?.close();
    await cleanup?.();
  });

  it('lists each code shown to the camera once, and stops the camera on request', async () => {
    const { page, problems, close } = await openPage(s.browser, {
      init: (context) => context.grantPermissions(['camera'], { origin: s.base }),
    });
    try {
      await gotoPage(page, `${s.base}/scan`, 'scan-app');
      await page.click('#camera-start');
      await page.locator('#camera-stop').waitFor();
      expect(await page.isVisible('#camera')).toBe(true);
      await page.locator('li[data-kind="npub"]').waitFor({ timeout: 15_000 });
      await page.locator('li[data-kind="g1-address"]').waitFor({ timeout: 15_000 });
      expect(await page.textContent('li[data-kind="npub"]')).toContain(member.npub);
      // The video loops: the same codes keep coming, the list does not grow.
      const reads = async () => Number(await page.getAttribute('#scan-results', 'data-reads'));
      await expect.poll(reads, { timeout: 15_000 }).toBeGreaterThanOrEqual(8);
      expect(await page.locator('#scan-results li').count()).toBe(2);

      await page.click('#camera-stop');
      expect(await page.isHidden('#camera')).toBe(true);
      expect(await page.isVisible('#camera-start')).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
