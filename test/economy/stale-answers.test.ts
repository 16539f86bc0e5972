import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localTimestamp } from '../../src/clock.js';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { FakeSquid } from './squid-server.js';

const RICH = 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';
const NEVER_READ = 'g1NYx6DWaZYhP8qGT8LXTiooUuxFtAhVnNrwMGphCvCLycWWa';
const READOUTS = ['/check_society', '/check_revenue', '/check_revenue?limit=2'];

describe('economy read-outs while the indexer is silent', () => {
  let squid: FakeSquid;
  let clock: ManualClock;
  let t: TestApp;
  beforeEach(async () => {
    squid = await FakeSquid.start();
    clock = new ManualClock(Date.parse('2025-11-22T09:00:00Z'));
    // A short time limit stands for the 8 s of production: the test counts requests, not time.
    const pool = new GraphqlPool({ urls: [squid.url], clock, timeoutMs: 500 });
    const ledger = new CachedLedger(new SquidLedger(pool, { pageSize: 4 }), { clock });
    t = await buildTestApp({ clock, overrides: { ledger } });
  });
  afterEach(async () => {
    await t.close();
    await squid.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const health = async () => (await get('/health')).json().indexer;

  it('serves what it had marked stale, answers 503 for the rest, and stops asking the indexer', async () => {
    const readAt = clock.now();
    const fresh = new Map<string, unknown>();
    for (const url of [`/check_balance?g1pub=${RICH}`, ...READOUTS]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json().stale).toBeUndefined();
      fresh.set(url, res.json());
    }
    expect(await health()).toEqual({ state: 'closed', consecutive_failures: 0, retry_in_seconds: null });

    squid.mode = 'hang';
    // Past the 10 minutes an answer is shown while refreshing: each read waits for the indexer, in vain.
    clock.advance(11 * 60_000);
    const marked = { stale: true, cached_at: localTimestamp(readAt) };
    for (const url of [`/check_balance?g1pub=${RICH}`, '/check_society', '/check_revenue']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...(fresh.get(url) as object), ...marked });
    }
    expect(await health()).toEqual({ state: 'open', consecutive_failures: 3, retry_in_seconds: 30 });
    const asked = squid.hits;

    const paged = await get('/check_revenue?limit=2');
    expect(paged.json()).toEqual({ ...(fresh.get('/check_revenue?limit=2') as object), ...marked });
    const unknown = await get(`/check_balance?g1pub=${NEVER_READ}`);
    expect(unknown.statusCode).toBe(503);
    expect(unknown.json()).toEqual({ detail: expect.stringContaining('unreachable'), code: 'INDEXER_DOWN' });
    expect(unknown.headers['retry-after']).toBe('30');
    const batch = await get(`/check_balances?g1pubs=${RICH},${NEVER_READ}`);
    expect(batch.statusCode).toBe(200);
    expect(batch.json()).toMatchObject({
      balances: { [RICH]: { balance_g1: 54, ...marked }, [NEVER_READ]: { code: 'INDEXER_DOWN' } },
      errors: 1,
    });
    for (let i = 0; i < 10; i++) {
      expect((await get(`/check_balance?g1pub=${RICH}`)).json()).toMatchObject(marked);
      expect((await get(`/check_balance?g1pub=${NEVER_READ}`)).statusCode).toBe(503);
    }
    expect(squid.hits).toBe(asked);

    // Back, and asked again after the cool-down: current answers, without the stale fields.
    squid.mode = 'ok';
    clock.advance(30_000);
    expect((await get(`/check_balance?g1pub=${NEVER_READ}`)).json()).toMatchObject({ balance_g1: 1.5 });
    expect(await health()).toMatchObject({ state: 'closed' });
    const again = await get('/check_society');
    expect(again.json().stale).toBeUndefined();
    expect(again.headers.etag).toBeDefined();
  });
});
