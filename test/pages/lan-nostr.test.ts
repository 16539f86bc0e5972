import { nip19 } from 'nostr-tools';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { LAN_HOST, startLanStation, type LanStation } from '../helpers/lan-station.js';
import { newKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { gotoPage, unexpected } from './harness.js';

/** A name the station was never configured with, as a phone's resolver would give it (mDNS, the box's DNS). */
const NAME = 'station.lan';

/**
 * The geo-message page opened from another device on the station's network: its relay is at the host the page
 * was loaded from (src/http/public-urls.ts), where the embedded relay listens (HOST), and publishing works.
 */
describe('the geo-message page of a station on a LAN', () => {
  let lan: LanStation;
  let browser: Browser;

  beforeAll(async () => {
    // Port 0 on HOST: test/http/lan-addresses.test.ts may hold the usual ports at the same time.
    lan = await startLanStation({ RELAY_URL: `ws://${LAN_HOST}:0`, IPFS_GATEWAY: `http://${LAN_HOST}:0` });
    browser = await launchBrowser([`--host-resolver-rules=MAP ${NAME} ${LAN_HOST}`]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await lan?.close();
  });

  it('connects to the relay at the page’s host and publishes a note the station receives', async () => {
    const relayPort = new URL(lan.station.relayUrl).port;
    const author = newKey();
    const { page, problems, close } = await openPage(browser);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    try {
      await gotoPage(page, `http://${NAME}:${lan.port}/nostr?lang=en`, 'nostr-app');
      expect(await page.inputValue('#relay-url')).toBe(`ws://${NAME}:${relayPort}`);
      await page.fill('#nsec', nip19.nsecEncode(author.sk));
      await page.click('#nsec-form button[type="submit"]');
      await page.fill('#lat', '43.6047');
      await page.fill('#lon', '1.4442');
      await page.fill('#message', 'Bonjour depuis le Wi-Fi de la station');
      await page.click('#publish-button');
      await page.locator('#publish-status', { hasText: 'Message published on the relay.' }).waitFor();
      expect(sockets.map((url) => new URL(url).host)).toContain(`${NAME}:${relayPort}`);

      const seen = () =>
        lan.station.app.view
          .geoMessages({ lat: 43.6, lon: 1.44 }, 0.01, 10)
          .find((message) => message.pubkey === author.hex);
      await waitFor(() => seen() !== undefined);
      // Plain http on a LAN name is not a trustworthy origin: Chromium ignores the COOP header, and says so.
      expect(unexpected(problems, [/Cross-Origin-Opener-Policy header has been ignored/])).toEqual([]);
    } finally {
      await close();
    }
  });
});
