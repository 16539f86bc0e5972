import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { signEvent, type TestKey } from '../helpers/nostr.js';
import { driveFiles, localUser, startBlossomStation, type BlossomStation } from '../drive/blossom/station.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A BUD-11 upload token for one blob, base64url as web clients encode it. */
function uploadToken(key: TestKey, hash: string): string {
  const now = Math.floor(Date.now() / 1000);
  const event = signEvent(key, {
    kind: 24242,
    content: 'Upload big.bin',
    tags: [
      ['t', 'upload'],
      ['expiration', String(now + 300)],
      ['x', hash],
    ],
  });
  return `Nostr ${Buffer.from(JSON.stringify(event)).toString('base64url')}`;
}

interface Progress {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}

/** The part of the page's XMLHttpRequest used here: this project compiles without the DOM library. */
interface PageXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  upload: { onprogress: (event: Progress) => void };
  onload: () => void;
  onerror: () => void;
  status: number;
  responseText: string;
  send(body: Blob): void;
}

/**
 * A web Blossom client in Chromium: a page on another site (`localhost`, the station being `127.0.0.1`) PUTs
 * a 3 MiB file with XMLHttpRequest, watching its upload progress, then reads the blob back by its URL.
 */
describe('Blossom upload from another site’s page in Chromium', () => {
  let s: BlossomStation;
  let alice: TestKey;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  const bytes = randomBytes(3 * 1024 * 1024 + 4321);
  const hash = sha256(bytes);

  beforeAll(async () => {
    s = await startBlossomStation();
    alice = await localUser(s, 'alice@example.org');
    // The page takes the file from its own site, as a user's pick would be: no bytes cross page.evaluate.
    site = createServer((request, response) => {
      if (request.url === '/big.bin')
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
      else
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('uploads with progress events after a CORS preflight, into the drive, and reads the blob back', async () => {
    const { context, page, problems, close } = await openPage(browser);
    try {
      const cdp = await context.newCDPSession(page);
      // Chromium reports a preflight's request as an OPTIONS and its answer with the type `Preflight`.
      const asked: { url: string; headers: Record<string, string> }[] = [];
      const answered: { url: string; status: number; headers: Record<string, string> }[] = [];
      cdp.on('Network.requestWillBeSent', ({ request }) => {
        if (request.method === 'OPTIONS') asked.push({ url: request.url, headers: request.headers });
      });
      cdp.on('Network.responseReceived', ({ type, response }) => {
        if (type === 'Preflight') answered.push(response);
      });
      await cdp.send('Network.enable');
      const upload = `${s.server}/upload`;
      await page.goto(`${siteOrigin}/`);
      expect(new URL(page.url()).origin).not.toBe(new URL(s.server).origin);
      // Loopback is faster than Chromium's progress reports (every ~50–100 ms): throttled sending gives the
      // page several of them, as on a real uplink. Only the count is asserted, never a duration.
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 6 * 1024 * 1024,
      });

      const sent = await page.evaluate(
        async ([url, authorization, declared]) => {
          const file = await (await fetch('/big.bin')).blob();
          const progress: Progress[] = [];
          const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
            const XHR = (globalThis as unknown as { XMLHttpRequest: new () => PageXhr }).XMLHttpRequest;
            const xhr = new XHR();
            xhr.open('PUT', url);
            xhr.setRequestHeader('Authorization', authorization);
            xhr.setRequestHeader('X-SHA-256', declared);
            xhr.setRequestHeader('Content-Type', 'application/octet-stream');
            xhr.upload.onprogress = (e) =>
              progress.push({ loaded: e.loaded, total: e.total, lengthComputable: e.lengthComputable });
            xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
            xhr.onerror = () => reject(new Error('the upload failed (network or CORS)'));
            xhr.send(file);
          });
          return { ...answer, size: file.size, progress };
        },
        [upload, uploadToken(alice, hash), hash] as const,
      );

      expect(sent.size).toBe(bytes.length);
      expect(sent.status).toBe(201);
      const descriptor = JSON.parse(sent.body) as { sha256: string; size: number; url: string };
      expect(descriptor).toMatchObject({ sha256: hash, size: bytes.length });
      // The browser asked first: a PUT with Authorization and X-SHA-256 is not a simple request.
      const preflight = asked.find((p) => p.url === upload);
      expect(preflight?.headers).toMatchObject({
        Origin: siteOrigin,
        'Access-Control-Request-Method': 'PUT',
      });
      expect(preflight?.headers['Access-Control-Request-Headers']?.split(',')).toEqual(
        expect.arrayContaining(['authorization', 'x-sha-256']),
      );
      const allowed = answered.find((p) => p.url === upload);
      expect(allowed?.status).toBeLessThan(300);
      expect(allowed?.headers['access-control-allow-origin']).toBe('*');

      const { progress } = sent;
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.every((p) => p.lengthComputable && p.total === bytes.length)).toBe(true);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]!.loaded).toBeGreaterThanOrEqual(progress[i - 1]!.loaded);
      expect(progress[0]!.loaded).toBeLessThan(bytes.length);
      expect(progress.at(-1)!.loaded).toBe(bytes.length);

      const files = await driveFiles(s, 'alice@example.org');
      expect(files.filter((f) => f.sha256 === hash)).toEqual([
        expect.objectContaining({ sha256: hash, size: bytes.length, source: { kind: 'blossom' } }),
      ]);

      const read = await page.evaluate(async (url) => {
        const res = await fetch(url);
        const digest = await crypto.subtle.digest('SHA-256', await res.arrayBuffer());
        const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
        return { status: res.status, hash: hex };
      }, descriptor.url);
      expect(new URL(descriptor.url).origin).toBe(new URL(s.server).origin);
      expect(read).toEqual({ status: 200, hash });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
