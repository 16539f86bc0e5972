import * as zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { revenueReport } from '../../src/economy/revenue.js';
import { RevenueBody, SocietyBody } from '../../src/economy/schemas.js';
import { societyReport } from '../../src/economy/society.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { manyTransfers, ORIGIN_WALLETS } from './many-transfers.js';
import { FakeSquid } from './squid-server.js';

// Counts the compressions the routes ask for; the real ones still run.
vi.mock('node:zlib', async (original) => {
  const real = await original<typeof import('node:zlib')>();
  return { ...real, brotliCompress: vi.fn(real.brotliCompress), gzip: vi.fn(real.gzip) };
});

const BR = { 'accept-encoding': 'gzip, deflate, br' };
const GZIP = { 'accept-encoding': 'gzip' };

describe('economy read-outs over 10,000 transfers', () => {
  let squid: FakeSquid;
  let clock: ManualClock;
  let t: TestApp;
  beforeAll(async () => {
    squid = await FakeSquid.start(manyTransfers(10_000));
    clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z'));
    const pool = new GraphqlPool({ urls: [squid.url], clock });
    const ledger = new CachedLedger(new SquidLedger(pool, { pageSize: 1_000 }), { clock });
    t = await buildTestApp({ clock, overrides: { ledger } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await squid?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const json = async (url: string) => (await get(url)).json();

  /** What Fastify's response serializer wrote for these reports before answers were prepared. */
  async function schemaSerialized(path: '/check_revenue' | '/check_society'): Promise<string> {
    const plain = Fastify();
    const incoming = await t.app.ledger.incomingTransfers(
      path === '/check_revenue' ? ORIGIN_WALLETS.distribution : ORIGIN_WALLETS.society,
    );
    const settings = { ...ORIGIN_WALLETS, marker: t.config.salesMarker, filterYear: 'all' };
    plain.get('/check_revenue', { schema: { response: { 200: RevenueBody } } }, async () =>
      revenueReport(incoming, settings, clock.now()),
    );
    plain.get('/check_society', { schema: { response: { 200: SocietyBody } } }, async () =>
      societyReport(incoming, ORIGIN_WALLETS, clock.now()),
    );
    const body = (await plain.inject(path)).body;
    await plain.close();
    return body;
  }

  it.each(['/check_revenue', '/check_society'] as const)(
    '%s: the full answer is byte for byte what the schema serializer writes',
    async (path) => {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(await schemaSerialized(path));
      expect(res.body.length).toBeGreaterThan(2_000_000);
    },
  );

  it.each(['/check_revenue', '/check_society'])(
    '%s: br and gzip decode to the same JSON, each with its own ETag, Vary: Accept-Encoding',
    async (path) => {
      const plain = await get(path);
      const br = await get(path, BR);
      const gz = await get(path, GZIP);
      expect(br.headers['content-encoding']).toBe('br');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
      const tags = [plain, br, gz].map((r) => r.headers.etag);
      expect(new Set(tags).size).toBe(3);
      for (const res of [plain, br, gz]) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      // Added to what CORS put there, not in its place.
      const crossSite = await get(path, { ...BR, origin: 'https://elsewhere.example' });
      expect(String(crossSite.headers.vary)).toMatch(/^Origin, Accept-Encoding$/i);
    },
  );

  it('answers 304 to an If-None-Match naming the current representation, 200 otherwise', async () => {
    const first = await get('/check_revenue', BR);
    const etag = String(first.headers.etag);
    const again = await get('/check_revenue', { ...BR, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get('/check_revenue', { ...BR, 'if-none-match': `"x", W/${etag}` })).statusCode).toBe(304);
    // The br tag does not stand for the gzip bytes, nor for another year.
    expect((await get('/check_revenue', { ...GZIP, 'if-none-match': etag })).statusCode).toBe(200);
    expect((await get('/check_revenue?year=2024', { ...BR, 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('compresses an answer once per ledger snapshot and encoding, then again for a new snapshot', async () => {
    const brotli = vi.mocked(zlib.brotliCompress);
    const gzip = vi.mocked(zlib.gzip);
    const history = () => t.app.ledger.incomingTransfers(ORIGIN_WALLETS.society);
    /** Past the ledger's fresh time: the next read starts a refresh, which hands out a new snapshot. */
    const nextSnapshot = async () => {
      const before = await history();
      clock.advance(60_000);
      await history();
      await vi.waitFor(async () => expect(await history()).not.toBe(before));
      brotli.mockClear();
      gzip.mockClear();
    };
    const burst = async (n: number) => {
      const answers = await Promise.all(
        [...Array(n)].flatMap(() => [get('/check_society', BR), get('/check_society', GZIP)]),
      );
      expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
      return new Set(answers.map((a) => a.headers.etag));
    };

    await nextSnapshot();
    const tags = await burst(25);
    await burst(5);
    expect(brotli).toHaveBeenCalledTimes(1);
    expect(gzip).toHaveBeenCalledTimes(1);
    await nextSnapshot();
    // The clock moved: the new snapshot's answer has another timestamp, so other bytes and tags.
    expect(await burst(25)).not.toEqual(tags);
    expect(brotli).toHaveBeenCalledTimes(1);
    expect(gzip).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['/check_revenue', 'transactions'],
    ['/check_society', 'transfers'],
    ['/check_revenue?year=2024', 'transactions'],
  ])('%s: pages walk the whole %s list; every other field as in the full answer', async (path, list) => {
    const full = await json(path);
    const sep = path.includes('?') ? '&' : '?';
    const walked: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=1000${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await get(`${path}${sep}${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const { [list]: items, next_cursor, ...rest } = body;
      const { [list]: _all, ...fullRest } = full;
      expect(rest).toEqual(fullRest);
      expect(items.length).toBeLessThanOrEqual(1000);
      walked.push(...items);
      cursor = next_cursor;
      pages++;
    } while (cursor !== null);
    expect(walked).toEqual(full[list]);
    expect(pages).toBe(Math.max(1, Math.ceil(full[list].length / 1000)));
    expect(full).not.toHaveProperty('next_cursor');
  });

  it('steps through transfers that share a block one at a time', async () => {
    const full = (await json('/check_revenue')).transactions.slice(0, 250);
    const walked: unknown[] = [];
    let cursor = '';
    while (walked.length < 250) {
      const body = await json(`/check_revenue?limit=1${cursor && `&cursor=${cursor}`}`);
      walked.push(...body.transactions);
      cursor = body.next_cursor;
    }
    expect(walked).toEqual(full);
  });

  it('the html page is still the page, never compressed nor tagged', async () => {
    const res = await get('/check_revenue?html=1&lang=en', BR);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toBeUndefined();
    const { total_transactions } = await json('/check_revenue');
    expect(res.body).toContain(`Transactions</div><div class="value">${total_transactions}<`);
    const society = await get('/check_society?html=1', BR);
    expect(society.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(society.body).toContain('member1@example.org');
  });

  it.each([
    'limit=0',
    'limit=1001',
    'limit=abc',
    'limit=1e309',
    'limit=-1',
    'limit=',
    'limit=99999',
    'cursor=not*base64',
    `cursor=${Buffer.from('12.x').toString('base64url')}`,
    `cursor=${'A'.repeat(65)}`,
    'cursor=',
    'limit=10&limit=20',
  ])('GET /check_revenue?%s → 400 {detail, code}', async (query) => {
    for (const path of ['/check_revenue', '/check_society']) {
      const res = await get(`${path}?${query}`);
      expect(res.statusCode, path).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'detail']);
    }
  });
});
