import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { FakeSquid } from './squid-server.js';

const NODE = '12D3KooWQm1nCzFbBDYf2Sg7GQn6bDYJxJt4oFYtmiLcfQnHr8Qk';

describe('economy pages (HTML)', () => {
  let squid: FakeSquid;
  let t: TestApp;
  beforeAll(async () => {
    squid = await FakeSquid.start();
    const clock = new ManualClock(Date.parse('2025-11-22T09:00:00Z'));
    const pool = new GraphqlPool({ urls: [squid.url], clock });
    const ledger = new CachedLedger(new SquidLedger(pool, { pageSize: 4 }), { clock });
    t = await buildTestApp({
      clock,
      overrides: { ledger },
      env: { IPFS_GATEWAY: 'https://ipfs.example.net/' },
    });
  });
  afterAll(async () => {
    await t.close();
    await squid.close();
  });

  async function page(url: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    return res.body;
  }

  /** Every `<script` in a page would be markup injected from a comment: the pages use none themselves. */
  function expectNoInjectedMarkup(html: string): void {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('href="javascript:');
  }

  it('balance page: Ğ1 and Ẑen, phone viewport, shared stylesheet and links to the other pages', async () => {
    const html = await page('/check_balance?g1pub=ENVcVSpfLxwL1Xa2kfmiSp1m5WBVAW1MWtqFCM3o4JZ3&html');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('name="viewport"');
    expect(html).toContain('href="/views/station.css"');
    expect(html).toContain('54.00 Ğ1');
    expect(html).toContain('530.00 Ẑ');
    expect(html).toContain('g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9');
    for (const href of [
      '/',
      '/scan',
      '/g1',
      '/nostr',
      '/cookie',
      '/check_society?html=1',
      '/check_revenue?html=1',
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toMatch(/href="\/check_balance\?html=1" aria-current="page"/);
  });

  it('balance page without a key shows the look-up form; English on request', async () => {
    const html = await page('/check_balance?html=1', { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('action="/check_balance"');
    expect(html).toContain('Ğ1 and Ẑen balance');
    expect(await page('/check_balance?html=1&lang=fr')).toContain('Solde Ğ1 et Ẑen');
  });

  it('society page: total capital, members with type icon and node link, full history, escaped comments', async () => {
    const html = await page('/check_society?html=1');
    expect(html).toContain('2160.00 Ẑ');
    expect(html).toContain('216.00 Ğ1');
    for (const email of [
      'bob@example.org',
      'alice@example.org',
      'satellite.fan@example.org',
      'carol@example.org',
    ]) {
      expect(html).toContain(`<td>${email}</td>`);
    }
    expect(html).toContain('🌌');
    expect(html).toContain('🛰️');
    expect(html).toContain('📜');
    expect(html).toContain(`href="https://ipfs.example.net/ipns/${NODE}"`);
    expect(html).toContain('2027-05-10');
    expect(html).toContain('Merci pour le café satellite');
    // The malicious comment is shown, as text.
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;@x.org:satellite:&quot;&gt;&lt;img src=x onerror=alert(2)&gt;',
    );
    expectNoInjectedMarkup(html);
  });

  it('revenue page (all years): totals in Ẑen and Ğ1, count, annual table, year buttons, sales with client', async () => {
    const html = await page('/check_revenue?html=1&lang=en');
    expect(html).toContain('1060.00 Ẑ');
    expect(html).toContain('106.00 Ğ1');
    expect(html).toMatch(/Transactions<\/div><div class="value">8</);
    expect(html).toContain('Annual summary');
    for (const year of ['2023', '2024', '2025']) {
      expect(html).toContain(`href="/check_revenue?year=${year}&amp;html=1&amp;lang=en"`);
    }
    expect(html).toContain('<td>frank@example.org</td>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toContain('intruder@example.org');
    expectNoInjectedMarkup(html);
  });

  it('revenue page for one year: no annual table, that year highlighted', async () => {
    const html = await page('/check_revenue?year=2024&html=1&lang=en');
    expect(html).not.toContain('Annual summary');
    expect(html).toContain('href="/check_revenue?year=2024&amp;html=1&amp;lang=en" aria-current="page"');
    expect(html).toContain('24.50 Ğ1');
    expect(html).toContain('<td>dave@example.org</td>');
    expect(html).not.toContain('<td>frank@example.org</td>');
    // The language switch keeps the year.
    expect(html).toContain('href="/check_revenue?year=2024&amp;html=1&amp;lang=fr"');
  });

  it('serves the shared stylesheet', async () => {
    const res = await t.app.inject('/views/station.css');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toContain('@media');
  });
});
