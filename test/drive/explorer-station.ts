import type { Page } from 'playwright-core';
import { createServer, type AddressInfo } from 'node:net';
import { nip19 } from 'nostr-tools';
import type { Browser } from 'playwright-core';
import type { DriveListing } from '../../src/drive/listing-schema.js';
import type { Manifest } from '../../src/drive/manifest.js';
import { startDriveGateway } from '../../src/drive/plugin.js';
import type { Gateway } from '../../src/drive/store/gateway.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';
import { multipart } from '../helpers/multipart.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';

/** A 1×1 PNG: an image the browser really decodes. */
export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Waits until the preview of `path` was decoded (a 1×1 image). A function, not a string: Playwright polls a
 * string predicate with eval, which the pages' CSP (no 'unsafe-eval') refuses once polling starts.
 */
export const imageLoaded = (page: Page, path: string) =>
  page.waitForFunction((wanted) => {
    // Runs in the page; the tests are compiled without the DOM types.
    const { document } = globalThis as unknown as { document: { querySelector(s: string): unknown } };
    const img = document.querySelector(`li[data-path="${wanted}"] img`) as {
      complete: boolean;
      naturalWidth: number;
    } | null;
    return img !== null && img.complete && img.naturalWidth === 1;
  }, path);

export interface Member extends TestKey {
  email: string;
  nsec: string;
  dir: string;
}

/**
 * The API and the station's embedded gateway on loopback ports, as a browser reaches them: the gateway on
 * IPFS_GATEWAY's port (so the pages' CSP and the published manifests name it), the API on the port `listen`
 * picked (the explorer's CSP allows it). One headless Chromium for the file.
 */
export interface ExplorerStation {
  t: TestApp;
  api: string;
  gateway: Gateway;
  browser: Browser;
  register(email: string): Promise<Member>;
  /** Uploads through the API over HTTP, signed as the member (NIP-98 with payload). */
  upload(member: Member, name: string, content: Buffer | string): Promise<{ new_cid: string }>;
  /** The member's drive as its index lists it (manifest.json's layout). */
  manifest(member: Member): Promise<Manifest>;
  listing(member: Member): Promise<DriveListing>;
  close(): Promise<void>;
}

/** A port nothing listens on right now, for IPFS_GATEWAY (the pages' CSP is built from it at start). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startExplorerStation(): Promise<ExplorerStation> {
  const t = await buildTestApp({ env: { IPFS_GATEWAY: `http://127.0.0.1:${await freePort()}` } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const gateway = await startDriveGateway(t.config, t.app.contentStore, t.deps.logger, api);
  if (!gateway) throw new Error('the embedded gateway did not start');
  const browser = await launchBrowser();
  const manifest = (member: Member): Promise<Manifest> => t.app.drive.list(member);
  return {
    t,
    api,
    gateway,
    browser,
    manifest,
    async register(email) {
      const res = await fetch(`${api}/g1nostr`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, lang: 'en' }),
      });
      if (res.status !== 200) throw new Error(`registration failed: ${await res.text()}`);
      const { nsec } = (await res.json()) as { nsec: string };
      const key = keyFromSecret(nip19.decode(nsec as `nsec1${string}`).data);
      return { ...key, email, nsec, dir: t.deps.users.dirFor(email) };
    },
    async upload(member, name, content) {
      const { body, contentType } = multipart([
        { name: 'npub', value: member.npub },
        { name: 'file', value: Buffer.from(content), filename: name },
      ]);
      const url = `${api}/api/upload`;
      const authorization = nip98Header(member, url, 'POST', { body });
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization },
        body,
      });
      if (res.status !== 200) throw new Error(`upload failed: ${await res.text()}`);
      return (await res.json()) as { new_cid: string };
    },
    async listing(member) {
      return (await (await fetch(`${api}/api/drive?npub=${member.npub}`)).json()) as DriveListing;
    },
    close: async () => {
      await browser.close();
      await gateway.close();
      await t.close();
    },
  };
}
