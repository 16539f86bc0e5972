import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { newKey } from '../helpers/nostr.js';
import { expectUserDirectory, gotoPage, startPageServer, type PageServer } from './harness.js';

const WALLET = 'g1LYch17SATt3eb8MhF6VByw6Pd14m7UsYupKLwyCmmRCQTY7';
const WALLET_V1 = '5fTwfbYUtCeoaFLbyzaBYUcq46nBS26rciWJAkBugqpo';

const png = (text: string) => QRCode.toBuffer(text, { type: 'png', width: 320, margin: 4 });

/** Two codes side by side in one picture (an identity card with its wallet code, say). */
async function twoCodesSvg(left: string, right: string): Promise<Buffer> {
  const place = async (text: string, x: number) =>
    (await QRCode.toString(text, { type: 'svg', margin: 4 })).replace(
      '<svg ',
      `<svg x="${x}" y="0" width="400" height="400" `,
    );
  const inner = (await place(left, 0)) + (await place(right, 480));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="880" height="400" shape-rendering="crispEdges">` +
      `<rect width="880" height="400" fill="#fff"/>${inner}</svg>`,
  );
}

/** The scan page (/scan) in headless Chromium against the service on a loopback port. */
describe('the scan page', () => {
  let s: PageServer;
  beforeAll(async () => {
    s = await startPageServer();
  });
  afterAll(() => s?.close());

  it('registers an e-mail with a zero balance, shows the keys once and a QR code that scans back to the npub', async () => {
    const { page, problems, close } = await openPage(s.browser);
    try {
      await gotoPage(page, `${s.base}/scan?lang=en`, 'scan-app');
      await page.fill('#email', 'scan@example.org');
      await page.click('#register-button');
      await page.waitForSelector('.identity canvas.qr');

      const dir = s.t.deps.users.dirFor('scan@example.org');
      await expectUserDirectory(dir);
      const npub = (await readFile(join(dir, 'NPUB'), 'utf8')).trim();
      const nsec = /NSEC=([^;]+);/.exec(await readFile(join(dir, '.secret.nostr'), 'utf8'))?.[1];
      const card = (await page.textContent('.identity')) ?? '';
      expect(card).toContain(npub);
      expect(card).toContain(nsec);
      expect(card).toContain('Save these keys now');
      expect(await page.getAttribute('.identity a[href^="/check_balance"]', 'href')).toBe(
        `/check_balance?g1pub=${(await readFile(join(dir, 'G1PUBNOSTR'), 'utf8')).trim()}&html=1`,
      );

      // The QR code drawn in the page, photographed and scanned back, is the npub.
      const photo = await (await page.$('.identity canvas.qr'))!.screenshot({ type: 'png' });
      await page.setInputFiles('#qr-files', { name: 'my-card.png', mimeType: 'image/png', buffer: photo });
      const item = await page.waitForSelector('#scan-results li[data-kind="npub"]');
      expect(await item.textContent()).toContain(npub);

      await page.click('[data-action="hide-keys"]');
      expect(await page.content()).not.toContain(nsec);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('decodes QR pictures and lists what it recognised; a secret key stays in the page', async () => {
    const stranger = newKey();
    const nsec = nip19.nsecEncode(stranger.sk);
    const link = `${s.base}/check_balance?g1pub=${WALLET}&html=1`;
    const { page, problems, close } = await openPage(s.browser);
    const sent: string[] = [];
    page.on('request', (request) => sent.push(`${request.url()} ${request.postData() ?? ''}`));
    try {
      await gotoPage(page, `${s.base}/scan?lang=en`, 'scan-app');
      expect(await page.isVisible('#scan-empty')).toBe(true);
      await page.setInputFiles('#qr-files', [
        { name: 'npub.png', mimeType: 'image/png', buffer: await png(`nostr:${stranger.npub}`) },
        { name: 'secret.png', mimeType: 'image/png', buffer: await png(nsec) },
        { name: 'wallet.png', mimeType: 'image/png', buffer: await png(WALLET) },
        { name: 'card.svg', mimeType: 'image/svg+xml', buffer: await twoCodesSvg(`${WALLET_V1}:8Kz`, link) },
      ]);
      await page.locator('#scan-results li').nth(4).waitFor();
      await page.locator('#scan-status:text-is("")').waitFor({ state: 'attached' });
      const kinds = await page.$$eval('#scan-results li', (items) =>
        items.map((li) => li.getAttribute('data-kind')),
      );
      expect(kinds.sort()).toEqual(['g1-address', 'g1-v1', 'npub', 'nsec', 'station-link']);
      expect(await page.textContent('#scan-count')).toBe('(5)');

      const npubItem = page.locator('li[data-kind="npub"]');
      expect(await npubItem.textContent()).toContain(stranger.npub);
      expect(await npubItem.locator('a').first().getAttribute('href')).toBe(
        `/api/test-nostr?npub=${stranger.npub}`,
      );

      const secret = page.locator('li[data-kind="nsec"]');
      expect(await secret.textContent()).toContain('never sent');
      expect(await secret.textContent()).toContain(stranger.npub);
      const wallets = page.locator('li[data-kind^="g1"] a');
      expect(await wallets.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
        `/check_balance?g1pub=${WALLET}&html=1`,
        `/check_balance?g1pub=${WALLET}&html=1`,
      ]);
      expect(await page.getAttribute('li[data-kind="station-link"] a', 'href')).toBe(link);

      // A code scanned again is listed once; a new one is added.
      await page.setInputFiles('#qr-files', [
        { name: 'again.png', mimeType: 'image/png', buffer: await png(WALLET) },
        { name: 'mail.png', mimeType: 'image/png', buffer: await png('Friend@Example.org') },
      ]);
      await page.locator('li[data-kind="email"]').waitFor();
      await page.locator('#scan-status:text-is("")').waitFor({ state: 'attached' });
      expect(await page.locator('#scan-results li').count()).toBe(6);
      expect(await page.getAttribute('li[data-kind="email"] a', 'href')).toBe(
        '/check_balance?g1pub=friend%40example.org&html=1',
      );

      expect(await page.content()).not.toContain(nsec);
      expect(sent.filter((line) => line.includes(nsec) || line.includes(nsec.slice(5, 30)))).toEqual([]);
      expect(problems).toEqual([]);

      await page.click('#scan-clear');
      expect(await page.locator('#scan-results li').count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('says so when a picture holds no code, a file is no picture, or there is no camera (in French)', async () => {
    const { page, problems, close } = await openPage(s.browser, { locale: 'fr-FR' });
    try {
      await gotoPage(page, `${s.base}/scan`, 'scan-app');
      expect(await page.textContent('h1')).toBe('Scanner');
      const blank = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#fff"/></svg>',
      );
      await page.setInputFiles('#qr-files', [
        { name: 'blanc.svg', mimeType: 'image/svg+xml', buffer: blank },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('<b>pas une image</b>') },
      ]);
      await page.locator('#scan-status', { hasText: 'notes.txt' }).waitFor();
      expect(await page.textContent('#scan-status')).toBe(
        'Aucun QR code trouvé dans blanc.svg · Image illisible : notes.txt',
      );
      expect(await page.$('#scan-status b')).toBeNull();

      await page.click('#camera-start');
      await page.locator('#page-error', { hasText: /caméra|HTTPS/ }).waitFor();
      expect(await page.isHidden('#camera')).toBe(true);
      expect(await page.isHidden('#camera-stop')).toBe(true);
      expect(await page.isVisible('#camera-start')).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
