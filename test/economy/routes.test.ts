import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { deadUrl, FakeSquid } from './squid-server.js';

/** The app with its ledger on the fake squid, small pages so histories span several of them. */
async function appOn(urls: string[]): Promise<TestApp> {
  const clock = new ManualClock(Date.parse('2025-11-22T09:00:00Z'));
  const ledger = new CachedLedger(new SquidLedger(new GraphqlPool({ urls, clock }), { pageSize: 4 }), {
    clock,
  });
  return buildTestApp({ clock, overrides: { ledger } });
}

describe('economy read-outs (JSON)', () => {
  let squid: FakeSquid;
  let t: TestApp;
  beforeAll(async () => {
    squid = await FakeSquid.start();
    t = await appOn([squid.url]);
  });
  afterAll(async () => {
    await t.close();
    await squid.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it.each([
    ['g1QcP4K48dugbSAGv9tbDtKEVPxAaT5GVbjWLSXJZHQSBEkmd', '0.00 Ğ1', 0, 0],
    ['g1MfEs9wxAtgkuy7nscZckXXyjRASBJR7hZwT3tdLjHCJx2wx', '1.00 Ğ1', 1, 0],
    ['g1NYx6DWaZYhP8qGT8LXTiooUuxFtAhVnNrwMGphCvCLycWWa', '1.50 Ğ1', 1.5, 5],
    ['g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9', '54.00 Ğ1', 54, 530],
  ])('GET /check_balance?g1pub=%s → %s', async (address, balance, g1, zen) => {
    const res = await get(`/check_balance?g1pub=${address}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ g1pub: address, address, balance, balance_g1: g1, zen });
  });

  it('converts a v1 base58 key to its SS58 address', async () => {
    const res = await get('/check_balance?g1pub=ENVcVSpfLxwL1Xa2kfmiSp1m5WBVAW1MWtqFCM3o4JZ3');
    expect(res.json()).toMatchObject({
      g1pub: 'ENVcVSpfLxwL1Xa2kfmiSp1m5WBVAW1MWtqFCM3o4JZ3',
      address: 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9',
      zen: 530,
    });
  });

  it("resolves a local user's e-mail to its G1PUBNOSTR wallet", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/g1nostr',
      payload: { email: 'Coucou@Example.org', salt: 'coucou', pepper: 'coucou' },
    });
    expect(created.statusCode).toBe(200);
    const res = await get('/check_balance?g1pub=coucou%40example.org');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      g1pub: 'g1P5kZ1PdDoeBVuMEvtDMm7Bfj8G6Xb9f9KrYEFYyMFj3qQ6T',
      address: 'g1P5kZ1PdDoeBVuMEvtDMm7Bfj8G6Xb9f9KrYEFYyMFj3qQ6T',
      balance: '25.00 Ğ1',
      balance_g1: 25,
      zen: 240,
    });
    expect((await get('/check_balance?g1pub=nobody%40example.org')).json().code).toBe('UNKNOWN_USER');
    expect((await get('/check_balance?g1pub=a%40b')).statusCode).toBe(400);
  });

  it.each(['not-a-key', 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK8', '', '%3Cscript%3E'])(
    'g1pub=%s → 400 {detail, code}',
    async (key) => {
      const res = await get(`/check_balance?g1pub=${key}`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'detail']);
    },
  );

  it('GET /check_society parses shares, totals and members', async () => {
    const res = await get('/check_society');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.g1pub).toBe(t.config.wallets.society);
    // Ten transfers reach the wallet; the one from another issuer is left out.
    expect(body.total_transfers).toBe(9);
    expect(body.total_outgoing_g1).toBe(216);
    expect(body.total_outgoing_zen).toBe(2160);
    const byComment = (text: string) =>
      body.transfers.find((x: { comment: string }) => x.comment.includes(text));
    expect(byComment('alice@example.org:constellation')).toMatchObject({
      recipient: 'alice@example.org',
      part_type: 'constellation',
      ipfs_node: '12D3KooWQm1nCzFbBDYf2Sg7GQn6bDYJxJt4oFYtmiLcfQnHr8Qk',
      amount_g1: 54,
      amount_zen: 540,
    });
    expect(byComment('satellite.fan@')).toMatchObject({ part_type: 'constellation', ipfs_node: null });
    expect(byComment('Parts sociales')).toMatchObject({ part_type: 'parts', recipient: 'carol@example.org' });
    expect(byComment('café satellite')).toMatchObject({ part_type: 'other', recipient: null });
    expect(byComment('<script>')).toMatchObject({ part_type: 'other', recipient: null, ipfs_node: null });
    expect(byComment('javascript:')).toMatchObject({ part_type: 'other', recipient: null, ipfs_node: null });
    expect(body.transfers.some((x: { comment: string }) => x.comment.includes('mallory'))).toBe(false);
    expect(body.members.map((m: { email: string }) => m.email)).toEqual([
      'bob@example.org',
      'alice@example.org',
      'satellite.fan@example.org',
      'carol@example.org',
    ]);
    expect(body.members[0]).toMatchObject({
      total_g1: 100,
      total_zen: 1000,
      shares: 2,
      latest_type: 'satellite',
      membership_end: '2026-09-01',
      ipfs_node: 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8',
    });
    expect(body.members[1]).toMatchObject({ membership_end: '2027-05-10' });
    expect(body.members[3]).toMatchObject({ latest_type: 'parts', membership_end: null });
  });

  it('GET /check_revenue sums sales across pages and years, leaving out other issuers and unmarked transfers', async () => {
    const res = await get('/check_revenue');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      g1pub: t.config.wallets.distribution,
      filter_year: 'all',
      total_revenue_g1: 106,
      total_revenue_zen: 1060,
      total_transactions: 8,
    });
    expect(body.yearly_summary).toEqual([
      { year: '2025', total_revenue_g1: 46, total_revenue_zen: 460, total_transactions: 3 },
      { year: '2024', total_revenue_g1: 24.5, total_revenue_zen: 245, total_transactions: 3 },
      { year: '2023', total_revenue_g1: 35.5, total_revenue_zen: 355, total_transactions: 2 },
    ]);
    const customers = body.transactions.map((x: { customer_email: string }) => x.customer_email);
    expect(customers).toContain('bob@example.org');
    expect(customers).not.toContain('intruder@example.org');
    expect(customers).not.toContain('outgoing@example.org');
    expect(body.transactions[0]).toMatchObject({
      year: '2025',
      customer_email: 'frank@example.org',
      amount_g1: 15,
      amount_zen: 150,
      transaction_type: 'ZENCOIN',
    });
  });

  it('GET /check_revenue?year=2024 keeps that year only', async () => {
    const body = (await get('/check_revenue?year=2024')).json();
    expect(body).toMatchObject({ filter_year: '2024', total_revenue_g1: 24.5, total_transactions: 3 });
    expect(body.transactions.map((x: { year: string }) => x.year)).toEqual(['2024', '2024', '2024']);
    expect((await get('/check_revenue?year=1999')).json()).toMatchObject({ total_transactions: 0 });
  });

  it.each(['abc', '20245', '24', '2024 ', 'ALL'])('GET /check_revenue?year=%s → 400', async (year) => {
    const res = await get(`/check_revenue?year=${encodeURIComponent(year)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'INVALID_YEAR' });
  });

  it('read each history once, page by page, and then from the cache', async () => {
    const pages = squid.count('transfers');
    await get('/check_revenue?year=2023');
    await get('/check_society');
    expect(squid.count('transfers')).toBe(pages);
    // Distribution: 11 transfers in pages of 4; society: 10 transfers.
    expect(pages).toBe(6);
  });
});

describe('economy read-outs when indexers fail', () => {
  it('uses the fallback indexer when the primary is down', async () => {
    const squid = await FakeSquid.start();
    const t = await appOn([await deadUrl(), squid.url]);
    try {
      const res = await t.app.inject(
        '/check_balance?g1pub=g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9',
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().zen).toBe(530);
      expect((await t.app.inject('/check_revenue')).json().total_transactions).toBe(8);
    } finally {
      await t.close();
      await squid.close();
    }
  });

  it('answers 503 {detail, code} when every indexer is down', async () => {
    const t = await appOn([await deadUrl(), await deadUrl()]);
    try {
      for (const url of [
        '/check_balance?g1pub=g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9',
        '/check_society',
        '/check_revenue',
      ]) {
        const res = await t.app.inject(url);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ detail: expect.stringContaining('unreachable'), code: 'INDEXER_DOWN' });
      }
    } finally {
      await t.close();
    }
  });

  it('builds its ledger from SQUID_URL / SQUID_FALLBACKS when none is given', async () => {
    const squid = await FakeSquid.start();
    const t = await buildTestApp({ env: { SQUID_URL: await deadUrl(), SQUID_FALLBACKS: squid.url } });
    try {
      const res = await t.app.inject(
        '/check_balance?g1pub=g1NYx6DWaZYhP8qGT8LXTiooUuxFtAhVnNrwMGphCvCLycWWa',
      );
      expect(res.json()).toMatchObject({ balance: '1.50 Ğ1', zen: 5 });
      expect(squid.count('accounts')).toBe(1);
    } finally {
      await t.close();
      await squid.close();
    }
  });
});
