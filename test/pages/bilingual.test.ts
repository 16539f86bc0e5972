import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { gotoPage, startPageServer, unexpected, type PageServer } from './harness.js';

/**
 * A page asks the station in its own language, whatever the browser prefers (docs/api-contract.md §6): the
 * French registration page shows the station's refusal in French even in an English browser, the English
 * page in English even in a French one. The code behind it is the same.
 */
describe('the station’s refusals in the page’s language', () => {
  let s: PageServer;
  beforeAll(async () => {
    s = await startPageServer();
    await s.t.deps.users.create({ email: 'taken@example.org' });
  });
  afterAll(() => s?.close());

  it.each([
    {
      lang: 'fr',
      browser: 'en-GB',
      shown: 'Échec : L’adresse taken@example.org est déjà inscrite sur cette station.',
    },
    { lang: 'en', browser: 'fr-FR', shown: 'Failed: taken@example.org is already registered.' },
  ])('the $lang page in a $browser browser', async ({ lang, browser, shown }) => {
    const { page, problems, close } = await openPage(s.browser, { locale: browser });
    const codes: string[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('/g1nostr')) codes.push((await response.json()).code);
    });
    try {
      await gotoPage(page, `${s.base}/g1?lang=${lang}`, 'g1-app');
      await page.fill('#email', 'taken@example.org');
      const sent = page.waitForRequest((request) => request.url().endsWith('/g1nostr'));
      await page.click('#register-button');
      expect((await sent).headers()['accept-language']).toBe(lang);
      await page.locator('#page-error', { hasText: shown }).waitFor();
      expect(await page.textContent('#page-error')).toBe(shown);
      expect(codes).toEqual(['USER_EXISTS']);
      expect(unexpected(problems, [/HTTP 409: .*\/g1nostr$/, /status of 409/])).toEqual([]);
    } finally {
      await close();
    }
  });
});
