import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CachedLedger } from '../../src/economy/cached-ledger.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { ManualClock } from '../helpers/clock.js';
import { FakeSquid } from './squid-server.js';

const DISTRIBUTION = 'g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5';
const RESERVE = 'g1LbTdQ7GNtnjba8xbZEYrTECHWVp7nJfVeebscbtAEbx6cM2';
const WALLET = 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';

describe('CachedLedger', () => {
  let squid: FakeSquid;
  let clock: ManualClock;
  let ledger: CachedLedger;

  const setBalance = (cents: number) => {
    squid.fixture.accounts.find((a) => a.id === WALLET)!.totalBalance = String(cents);
  };

  beforeEach(async () => {
    squid = await FakeSquid.start();
    clock = new ManualClock();
    const source = new SquidLedger(new GraphqlPool({ urls: [squid.url], clock }), { pageSize: 4 });
    ledger = new CachedLedger(source, {
      clock,
      freshMs: 30_000,
      maxStaleMs: 600_000,
      fullRefreshMs: 3_600_000,
    });
  });
  afterEach(async () => squid.close());

  it('shares one indexer request between concurrent callers and serves fresh answers from memory', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => ledger.balanceCents(WALLET)));
    expect(new Set(answers)).toEqual(new Set([5400]));
    expect(await ledger.balanceCents(WALLET)).toBe(5400);
    expect(squid.count('accounts')).toBe(1);
  });

  it('answers with the stale value while one background refresh runs', async () => {
    await ledger.balanceCents(WALLET);
    setBalance(7000);
    clock.advance(31_000);
    squid.hold();
    // The indexer holds its answer, yet both calls return at once with what we had.
    expect(await ledger.balanceCents(WALLET)).toBe(5400);
    expect(await ledger.balanceCents(WALLET)).toBe(5400);
    squid.release();
    await vi.waitFor(async () => expect(await ledger.balanceCents(WALLET)).toBe(7000));
    expect(squid.count('accounts')).toBe(2);
  });

  it('does not show an answer older than maxStaleMs: the caller waits for a fresh one', async () => {
    await ledger.balanceCents(WALLET);
    setBalance(9900);
    clock.advance(601_000);
    squid.hold();
    let settled = false;
    const pending = ledger.balanceCents(WALLET).finally(() => (settled = true));
    await vi.waitFor(() => expect(squid.count('accounts')).toBe(2));
    expect(settled).toBe(false);
    squid.release();
    expect(await pending).toBe(9900);
  });

  it('after a failed refresh, serves the last answer marked stale, up to a day old, then the error', async () => {
    const readAt = clock.now();
    await ledger.balanceCents(WALLET);
    clock.advance(31_000);
    squid.mode = 'http-500';
    // The refresh has not failed yet: the answer is the usual cached one.
    expect(await ledger.balance(WALLET)).toEqual({ value: 5400, stale: false, fetchedAt: readAt });
    await vi.waitFor(async () => expect((await ledger.balance(WALLET)).stale).toBe(true));
    // Past maxStaleMs the caller waits for the indexer, which fails: still the last answer, said so.
    clock.advance(601_000);
    expect(await ledger.balance(WALLET)).toEqual({ value: 5400, stale: true, fetchedAt: readAt });
    clock.advance(24 * 3_600_000);
    await expect(ledger.balance(WALLET)).rejects.toMatchObject({ code: 'INDEXER_DOWN' });
    // Its last queries failed: the indexer is asked again once the circuit's cool-down is over.
    squid.mode = 'ok';
    await expect(ledger.balance(WALLET)).rejects.toMatchObject({ code: 'INDEXER_DOWN' });
    clock.advance(30_000);
    expect(await ledger.balance(WALLET)).toEqual({ value: 5400, stale: false, fetchedAt: clock.now() });
  });

  it('refreshes a long history by reading only its newest page, and re-reads it whole hourly', async () => {
    expect(await ledger.incomingTransfers(DISTRIBUTION)).toHaveLength(11);
    expect(squid.count('transfers')).toBe(3);
    squid.fixture.transfers.push({
      fromId: RESERVE,
      toId: DISTRIBUTION,
      amount: '800',
      timestamp: '2025-11-01T10:00:00.000Z',
      blockNumber: 5000,
      comment: { remark: 'UPLANET:g1LBF94v:ZENCOIN:new@example.org' },
    });
    clock.advance(31_000);
    await ledger.incomingTransfers(DISTRIBUTION);
    await vi.waitFor(async () => expect(await ledger.incomingTransfers(DISTRIBUTION)).toHaveLength(12));
    expect(squid.count('transfers')).toBe(4);
    const merged = await ledger.incomingTransfers(DISTRIBUTION);
    expect(merged[0]?.blockNumber).toBe(5000);
    expect(new Set(merged.map((t) => `${t.blockNumber}:${t.amountCents}`)).size).toBe(12);

    clock.advance(3_600_000);
    await ledger.incomingTransfers(DISTRIBUTION);
    await vi.waitFor(() => expect(squid.count('transfers')).toBe(7));
    expect(await ledger.incomingTransfers(DISTRIBUTION)).toHaveLength(12);
  });
});
