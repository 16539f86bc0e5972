import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';
import type { TestApp } from '../helpers/app.js';
import { unexpected } from '../pages/harness.js';
import { startCrossOrigin, type CrossOrigin, type OtherSite } from './cross-origin.js';

/**
 * Real pages on other origins (another loopback port) calling the station from Chromium: a public read, NIP-98
 * from a CORS_ORIGINS site and from any other, and a cross-site form POST riding on the relay-observed login.
 */
describe('cross-origin clients in Chromium', () => {
  let x: CrossOrigin;
  let t: TestApp;
  let api: string;
  let allowed: OtherSite;
  let foreign: OtherSite;
  let alice: TestKey;
  let browser: Browser;
  beforeAll(async () => {
    x = await startCrossOrigin();
    ({ t, api, allowed, foreign, alice } = x);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await x?.close();
  });

  /** Runs `fetch` in a page of `origin`: the status and body it could read, or the browser's refusal. */
  async function fetchFrom(origin: string, url: string, init: RequestInit = {}) {
    const opened = await openPage(browser);
    try {
      await opened.page.goto(`${origin}/`);
      const result = await opened.page.evaluate(
        async ([target, options]) => {
          try {
            const res = await fetch(target, options);
            return { status: res.status, body: await res.text() };
          } catch (error) {
            return { blocked: String(error) };
          }
        },
        [url, init] as const,
      );
      return { ...result, problems: opened.problems };
    } finally {
      await opened.close();
    }
  }

  it('a public route works from any site', async () => {
    for (const site of [allowed, foreign]) {
      const res = await fetchFrom(site.origin, `${api}/api/nip42/challenge?npub=${alice.npub}`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body!).pubkey_hex).toBe(alice.hex);
      expect(res.problems).toEqual([]);
    }
  });

  it('NIP-98 from a CORS_ORIGINS site: the preflight passes and the call works', async () => {
    const url = `${api}/api/me`;
    const res = await fetchFrom(allowed.origin, url, {
      headers: { authorization: nip98Header(alice, url, 'GET') },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body!)).toMatchObject({
      hex: alice.hex,
      auth_method: 'nip98',
      email: 'alice@example.org',
    });
    expect(res.problems).toEqual([]);
  });

  it('NIP-98 from any other site: the browser blocks the call', async () => {
    const url = `${api}/api/me`;
    const res = await fetchFrom(foreign.origin, url, {
      headers: { authorization: nip98Header(alice, url, 'GET') },
    });
    expect(res.blocked).toMatch(/Failed to fetch/);
    expect(res.status).toBeUndefined();
    expect(unexpected(res.problems, [/CORS policy/, /request failed/, /Failed to load resource/])).toEqual(
      [],
    );
  });

  it('the ambient relay login: readable for the CORS_ORIGINS site, refused to any other', async () => {
    const url = `${api}/api/me?npub=${alice.npub}`;
    const mine = await fetchFrom(allowed.origin, url);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.body!)).toMatchObject({ auth_method: 'relay' });

    // A form-like POST the page does not even try to read (no-cors) still carries its Origin: the station
    // refuses it before staging anything, instead of acting for the logged-in address.
    const opened = await openPage(browser);
    try {
      await opened.page.goto(`${foreign.origin}/`);
      const upload = `${api}/api/upload`;
      const answer = opened.page.waitForResponse((response) => response.url() === upload);
      await opened.page.evaluate(
        ([target, npub]) => {
          const form = new FormData();
          form.append('npub', npub);
          form.append('file', new Blob(['planted by another site']), 'planted.txt');
          return fetch(target, { method: 'POST', mode: 'no-cors', body: form }).then(() => undefined);
        },
        [upload, alice.npub] as const,
      );
      // The body of a no-cors answer is out of reach even here: its code is checked without a browser above.
      expect((await answer).status()).toBe(403);
    } finally {
      await opened.close();
    }
    expect(
      await readdir(join(t.config.dataRoot, 'nostr', 'alice@example.org', 'APP', 'uDRIVE', 'Documents')),
    ).toEqual([]);
  });
});
