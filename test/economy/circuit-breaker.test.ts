import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitOpen } from '../../src/economy/circuit-breaker.js';
import { GraphqlPool } from '../../src/economy/graphql.js';
import { SquidLedger } from '../../src/economy/squid.js';
import { ManualClock } from '../helpers/clock.js';
import { FakeSquid } from './squid-server.js';

const WALLET = 'g1PUFShQzxJakbUxnBimBoyCaf3xgbZMJHoEtwQkbqGomfcK9';
const fail = () => Promise.reject(new Error('down'));

describe('CircuitBreaker', () => {
  it('opens after the threshold of failures in a row; a success in between starts the count again', async () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ clock, failureThreshold: 3, coolDownMs: 10_000 });
    await expect(breaker.run(fail)).rejects.toThrow('down');
    await expect(breaker.run(fail)).rejects.toThrow('down');
    expect(await breaker.run(async () => 'ok')).toBe('ok');
    for (let i = 0; i < 3; i++) await expect(breaker.run(fail)).rejects.toThrow('down');
    let calls = 0;
    const counted = () => {
      calls++;
      return Promise.resolve();
    };
    await expect(breaker.run(counted)).rejects.toBeInstanceOf(CircuitOpen);
    expect(calls).toBe(0);
    expect(breaker.health()).toEqual({ state: 'open', consecutiveFailures: 3, retryInMs: 10_000 });
  });

  it('lets one probe through after the cool-down: failing, it opens again; working, it closes', async () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ clock, failureThreshold: 1, coolDownMs: 10_000 });
    await expect(breaker.run(fail)).rejects.toThrow('down');
    clock.advance(10_000);
    expect(breaker.health().state).toBe('half-open');
    await expect(breaker.run(fail)).rejects.toThrow('down');
    expect(breaker.health()).toMatchObject({ state: 'open', retryInMs: 10_000 });
    clock.advance(10_000);
    let release: () => void = () => undefined;
    const probe = breaker.run(() => new Promise<string>((resolve) => (release = () => resolve('back'))));
    // While the probe runs, every other call still fails at once.
    await expect(breaker.run(async () => 'other')).rejects.toBeInstanceOf(CircuitOpen);
    release();
    expect(await probe).toBe('back');
    expect(breaker.health()).toEqual({ state: 'closed', consecutiveFailures: 0, retryInMs: null });
  });

  it('leaves the circuit as it is for an error that does not count (the caller gave up)', async () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ clock, failureThreshold: 1 });
    for (let i = 0; i < 5; i++) await expect(breaker.run(fail, () => false)).rejects.toThrow('down');
    expect(breaker.health()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });
});

describe('the indexer behind its circuit breaker', () => {
  let squid: FakeSquid;
  let clock: ManualClock;
  let pool: GraphqlPool;
  let ledger: SquidLedger;

  beforeEach(async () => {
    squid = await FakeSquid.start();
    clock = new ManualClock();
    pool = new GraphqlPool({ urls: [squid.url], clock, timeoutMs: 500 });
    ledger = new SquidLedger(pool);
  });
  afterEach(async () => squid.close());

  it('stops asking an indexer that never answers, then probes it once per cool-down', async () => {
    squid.mode = 'hang';
    for (let i = 0; i < 3; i++)
      await expect(ledger.balanceCents(WALLET)).rejects.toMatchObject({ code: 'INDEXER_TIMEOUT' });
    expect(squid.hits).toBe(3);
    expect(pool.health()).toEqual({ state: 'open', consecutiveFailures: 3, retryInMs: 30_000 });

    for (let i = 0; i < 20; i++) {
      await expect(ledger.balanceCents(WALLET)).rejects.toMatchObject({
        code: 'INDEXER_DOWN',
        retryAfterSeconds: 30,
      });
    }
    expect(squid.hits).toBe(3);

    clock.advance(30_000);
    const probe = ledger.balanceCents(WALLET);
    await expect(ledger.balanceCents(WALLET)).rejects.toMatchObject({ code: 'INDEXER_DOWN' });
    expect(pool.health().state).toBe('half-open');
    await expect(probe).rejects.toMatchObject({ code: 'INDEXER_TIMEOUT' });
    expect(squid.hits).toBe(4);
    expect(pool.health().state).toBe('open');

    squid.mode = 'ok';
    clock.advance(30_000);
    expect(await ledger.balanceCents(WALLET)).toBe(5400);
    expect(await ledger.balanceCents(WALLET)).toBe(5400);
    expect(squid.hits).toBe(6);
    expect(pool.health()).toEqual({ state: 'closed', consecutiveFailures: 0, retryInMs: null });
  });
});
