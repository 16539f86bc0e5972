import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserGridIndex } from '../../src/geo/user-index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { deadUrl, FakeSquid } from '../economy/squid-server.js';

describe('GET / (system JSON)', () => {
  let squid: FakeSquid;
  let t: TestApp;
  const g1 = new Map<string, string>();

  beforeAll(async () => {
    squid = await FakeSquid.start({ accounts: [], transfers: [] });
    t = await buildTestApp({ env: { SQUID_URL: squid.url, IPFSNODEID: '12D3KooWStation' } });
    const people: [string, number | null, number | null][] = [
      ['a@example.org', 43.6, 1.44],
      ['b@example.org', 43.61, 1.45],
      ['c@example.org', 43.6, 1.44],
      ['paris@example.org', 48.85, 2.35],
      ['nowhere@example.org', null, null],
    ];
    for (const [email, lat, lon] of people) {
      const created = await t.deps.users.create({ email, gps: lat === null ? null : { lat, lon: lon! } });
      g1.set(email, created.keys.g1.address);
    }
    squid.fixture.accounts.push(
      { id: g1.get('a@example.org')!, totalBalance: '5500' },
      { id: t.config.wallets.distribution, totalBalance: 10100 },
    );
  });
  afterAll(async () => {
    await t.close();
    await squid.close();
  });

  it('lists the local users inside the window, with cells, distances and Ẑen', async () => {
    const res = await t.app.inject({ url: '/?lat=43.6&lon=1.44&deg=0.1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      version: expect.any(String),
      IPFSNODEID: '12D3KooWStation',
      UPLANETG1PUB: t.config.wallets.distribution,
      G1: 101,
      ZEN: 1000,
      CENTER: { LAT: 43.6, LON: 1.44, DEG: 0.1 },
      uSPOT: 'http://localhost:80',
    });
    expect(body.NOSTR.map((u: { EMAIL: string }) => u.EMAIL).sort()).toEqual([
      'a@example.org',
      'b@example.org',
      'c@example.org',
    ]);
    const a = body.NOSTR.find((u: { EMAIL: string }) => u.EMAIL === 'a@example.org');
    expect(a).toMatchObject({ LAT: 43.6, LON: 1.44, G1PUBNOSTR: g1.get('a@example.org'), ZEN: 540 });
    expect(body.NOSTR.find((u: { EMAIL: string }) => u.EMAIL === 'b@example.org').ZEN).toBe(0);
    expect(body.CLOSEST_UMAPs).toEqual([
      { LAT: 43.6, LON: 1.44, SECTOR: '43.6_1.4', REGION: '43_1', USERS: 2, DISTANCE_KM: 0 },
      {
        LAT: 43.61,
        LON: 1.45,
        SECTOR: '43.6_1.4',
        REGION: '43_1',
        USERS: 1,
        DISTANCE_KM: expect.closeTo(1.37, 1),
      },
    ]);
    expect(body.UMAPs).toHaveLength(2);
  });

  it('normalises coordinates to two decimals and widens with deg', async () => {
    const body = (await t.app.inject({ url: '/?lat=45.123456&lon=1.98765&deg=8' })).json();
    expect(body.CENTER).toEqual({ LAT: 45.12, LON: 1.99, DEG: 8 });
    expect(body.NOSTR.map((u: { EMAIL: string }) => u.EMAIL).sort()).toEqual([
      'a@example.org',
      'b@example.org',
      'c@example.org',
      'paris@example.org',
    ]);
    expect(body.CLOSEST_UMAPs).toHaveLength(3);
  });

  it('serves repeated windows from its cache', async () => {
    // The ledger caches balances too: count the report's own work (window look-ups) as well.
    const lookups = vi.spyOn(UserGridIndex.prototype, 'within');
    await t.app.inject({ url: '/?lat=10&lon=10&deg=1' });
    const asked = squid.hits;
    await t.app.inject({ url: '/?lat=10.001&lon=10&deg=1' }); // same UMAP cell, same report
    expect(squid.hits).toBe(asked);
    expect(lookups).toHaveBeenCalledTimes(1);
    await t.app.inject({ url: '/?lat=10&lon=10&deg=2' });
    expect(lookups).toHaveBeenCalledTimes(2);
    lookups.mockRestore();
  });

  it.each(['/?deg=x&lat=1&lon=1', '/?lat=91&lon=0', '/?lat=1', '/?lat=1&lon=1&deg=0', '/?deg=2'])(
    'answers 400 for %s',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toMatch(/INVALID_COORDINATES|VALIDATION_FAILED/);
    },
  );

  it('renders the same data as a page for browsers, escaped', async () => {
    const res = await t.app.inject({
      url: '/?lat=43.6&lon=1.44&deg=0.1',
      headers: { accept: 'text/html,*/*' },
    });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('a@example.org');
    expect(res.body).toContain('101.00 Ğ1');
  });
});

describe('GET / with the indexer down', () => {
  it('still answers, with unknown balances as null', async () => {
    const t = await buildTestApp({ env: { SQUID_URL: await deadUrl() } });
    try {
      await t.deps.users.create({ email: 'x@example.org', gps: { lat: 1, lon: 1 } });
      const body = (await t.app.inject({ url: '/?lat=1&lon=1' })).json();
      expect(body).toMatchObject({ G1: null, ZEN: null, NOSTR: [expect.objectContaining({ ZEN: null })] });
    } finally {
      await t.close();
    }
  });
});
