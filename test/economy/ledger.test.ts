import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { ManualClock } from '../helpers/clock.js';
import { deadUrl, FakeSquid } from './squid-server.js';

const DISTRIBUTION = 'g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5';
const FIFTY_FOUR = 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';

describe('SquidLedger against a local squid', () => {
  let squid: FakeSquid;
  let clock: ManualClock;
  const ledger = (urls: string[], timeoutMs = 2_000) =>
    new SquidLedger(new GraphqlPool({ urls, clock, timeoutMs }), { pageSize: 4 });

  beforeEach(async () => {
    squid = await FakeSquid.start();
    clock = new ManualClock();
  });
  afterEach(async () => squid.close());

  it('reads balances in cents; an account the chain never saw has 0', async () => {
    const l = ledger([squid.url]);
    expect(await l.balanceCents(FIFTY_FOUR)).toBe(5400);
    expect(await l.balanceCents('g1M2rkxnGrppCvDLBMsqWEjAVcuvCLkhBTL6jf4e5uPVo1ZVo')).toBe(0);
  });

  it('follows the cursor through every page, newest block first', async () => {
    const transfers = await ledger([squid.url]).incomingTransfers(DISTRIBUTION);
    expect(transfers).toHaveLength(11);
    expect(squid.count('transfers')).toBe(3);
    expect(squid.requests.map((r) => r.variables.cursor === null)).toEqual([true, false, false]);
    const blocks = transfers.map((t) => t.blockNumber);
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    expect(transfers.at(-1)).toMatchObject({ amountCents: 1000, comment: null, blockNumber: 50 });
  });

  it('falls back to the next indexer, and tries a failed one last while it cools down', async () => {
    const broken = await FakeSquid.start();
    broken.mode = 'http-500';
    try {
      const l = ledger([broken.url, squid.url]);
      expect(await l.balanceCents(FIFTY_FOUR)).toBe(5400);
      expect(await l.balanceCents(FIFTY_FOUR)).toBe(5400);
      expect(squid.count('accounts')).toBe(2);
      // The primary answered 500 once, then was skipped while the fallback worked.
      expect(broken.hits).toBe(1);
      clock.advance(31_000);
      broken.mode = 'ok';
      expect(await l.balanceCents(FIFTY_FOUR)).toBe(5400);
      expect(broken.hits).toBe(2);
      expect(squid.count('accounts')).toBe(2);
    } finally {
      await broken.close();
    }
  });

  it('refused connections everywhere → 503 INDEXER_DOWN, never a zero balance', async () => {
    const l = ledger([await deadUrl(), await deadUrl()]);
    await expect(l.balanceCents(FIFTY_FOUR)).rejects.toMatchObject({ code: 'INDEXER_DOWN' });
  });

  it('an indexer that never answers → 504 INDEXER_TIMEOUT', async () => {
    squid.mode = 'hang';
    await expect(ledger([squid.url], 200).balanceCents(FIFTY_FOUR)).rejects.toMatchObject({
      code: 'INDEXER_TIMEOUT',
    });
  });

  it('GraphQL errors and malformed answers → 502 INDEXER_FAILED', async () => {
    squid.mode = 'graphql-error';
    await expect(ledger([squid.url]).balanceCents(FIFTY_FOUR)).rejects.toMatchObject({
      code: 'INDEXER_FAILED',
    });
    squid.mode = 'ok';
    squid.fixture.transfers[0]!.amount = '12.5';
    await expect(
      ledger([squid.url]).incomingTransfers(squid.fixture.transfers[0]!.toId),
    ).rejects.toMatchObject({
      kind: 'failed',
    });
  });
});
