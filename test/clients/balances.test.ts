import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { deadUrl, FakeSquid } from '../economy/squid-server.js';

const EMPTY = 'g1QcP4K48dugbSAGv9tbDtKEVPxAaT5GVbjWLSXJZHQSBEkmd';
const ONE_AND_A_HALF = 'g1NYx6DWaZYhP8qGT8LXTiooUuxFtAhVnNrwMGphCvCLycWWa';
const RICH = 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';
const RICH_V1 = 'ENVcVSpfLxwL1Xa2kfmiSp1m5WBVAW1MWtqFCM3o4JZ3';

async function appOn(urls: string[]): Promise<TestApp> {
  const clock = new ManualClock(Date.parse('2025-11-22T09:00:00Z'));
  const ledger = new CachedLedger(new SquidLedger(new GraphqlPool({ urls, clock })), { clock });
  return buildTestApp({ clock, overrides: { ledger } });
}

/**
 * UPassport's `GET /check_balances?g1pubs=pub1,pub2,…` (routers/finance.py), called by wallet lists that show
 * `balances[key].balance` and `.zen` for each key they asked about; here through the station's cached ledger
 * on the local indexer.
 */
describe('batch balance clients', () => {
  let squid: FakeSquid;
  let t: TestApp;
  beforeAll(async () => {
    squid = await FakeSquid.start();
    t = await appOn([squid.url]);
  });
  afterAll(async () => {
    await t?.close();
    await squid?.close();
  });

  const get = (g1pubs: string) => t.app.inject({ url: `/check_balances?g1pubs=${g1pubs}` });

  it('answers each key as /check_balance would, keyed as given, in one request', async () => {
    const res = await get([EMPTY, ONE_AND_A_HALF, RICH_V1].join(','));
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(body).toMatchObject({ count: 3, errors: 0 });
    expect(Object.keys(body.balances)).toEqual([EMPTY, ONE_AND_A_HALF, RICH_V1]);
    for (const key of Object.keys(body.balances)) {
      const single = (await t.app.inject({ url: `/check_balance?g1pub=${key}` })).json();
      expect(body.balances[key]).toEqual(single);
    }
    // What the wallet lists do with an entry.
    expect(parseFloat(body.balances[ONE_AND_A_HALF].balance)).toBe(1.5);
    expect(body.balances[RICH_V1]).toMatchObject({ address: RICH, zen: 530 });
  });

  it('an unreadable key gets an error entry, the others their balance; a repeated key counts once', async () => {
    const created = await t.app.users.create({
      email: 'wallet@example.org',
      salt: 'coucou',
      pepper: 'coucou',
    });
    const res = await get(`${RICH}%2Cnot-a-key, ${RICH},wallet%40example.org,nobody@example.org,`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 4, errors: 2 });
    expect(body.balances[RICH].zen).toBe(530);
    expect(body.balances['not-a-key']).toEqual({
      g1pub: 'not-a-key',
      detail: expect.any(String),
      code: 'INVALID_G1PUB',
    });
    expect(body.balances['nobody@example.org']).toMatchObject({ code: 'UNKNOWN_USER' });
    expect(body.balances['wallet@example.org']).toMatchObject({ address: created.keys.g1.address });
  });

  it('refuses an empty list and more than 50 keys with 400 {detail, code}', async () => {
    const empty = await get(',, ,');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ detail: expect.any(String), code: 'MISSING_G1PUBS' });
    const many = Array.from({ length: 51 }, (_, i) => `${RICH}${i}`).join(',');
    const tooMany = await get(many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ detail: expect.stringContaining('50'), code: 'TOO_MANY_KEYS' });
    expect((await t.app.inject({ url: '/check_balances' })).statusCode).toBe(400);
  });

  it('an indexer that answers nothing is a 503, never a page of zero balances', async () => {
    const down = await appOn([await deadUrl()]);
    try {
      const res = await down.app.inject({ url: `/check_balances?g1pubs=${EMPTY},${RICH}` });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: expect.any(String), code: 'INDEXER_DOWN' });
      // A key that fails on its own still leaves an answer for the batch.
      const mixed = await down.app.inject({ url: `/check_balances?g1pubs=${EMPTY},bad` });
      expect(mixed.statusCode).toBe(200);
      expect(mixed.json().balances[EMPTY].code).toBe('INDEXER_DOWN');
    } finally {
      await down.close();
    }
  });
});
