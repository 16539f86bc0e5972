import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey } from '../helpers/nostr.js';
import { tempDir } from '../helpers/temp.js';
import { qrVideo, launchWithCamera } from './fake-camera.js';
import { gotoPage } from './harness.js';

const WALLET = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';

/** The scan page's camera loop, with Chromium's fake camera playing a video of two QR codes in turn. */
describe('the scan page with a camera', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let cleanup: () => Promise<void>;
  const member = newKey();

  beforeAll(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    browser = await launchWithCamera(await qrVideo(dir.path, [member.npub, WALLET]));
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await cleanup?.();
  });

  it('lists each code shown to the camera once, and stops the camera on request', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.grantPermissions(['camera'], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
    page.on('pageerror', (error) => void problems.push(error.message));
    try {
      await gotoPage(page, `${base}/scan`, 'scan-app');
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
      await context.close();
    }
  });
});
