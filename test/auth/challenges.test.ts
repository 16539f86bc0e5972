import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChallengeStore, CHALLENGES_PER_ADDRESS } from '../../src/auth/challenges.js';
import { ReplayRecords } from '../../src/auth/replay.js';
import { openStationDb, type StationDb } from '../../src/state/station-db.js';
import { ManualClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/temp.js';

const alice = 'cd'.repeat(32);
const mallory = 'ef'.repeat(32);

describe('challenges and replay records in the station database', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let dbs: StationDb[];
  const clock = new ManualClock();
  beforeEach(async () => {
    dir = await tempDir();
    // Two opens of one path stand for two PM2 workers.
    dbs = [await openStationDb(dir.path), await openStationDb(dir.path)];
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    await dir.cleanup();
  });

  it('issues a challenge for one key and one address, consumed once, in any worker', async () => {
    const [a, b] = dbs.map((db) => new ChallengeStore(db, clock)) as [ChallengeStore, ChallengeStore];
    const { challenge, expiresIn } = await a.issue(alice, '203.0.113.7');
    expect(expiresIn).toBe(120);
    expect(b.check(challenge, { pubkey: alice, address: '203.0.113.7' })).toBe('ok');
    const results = await Promise.all([
      a.consume(challenge, { pubkey: alice, address: '203.0.113.7' }),
      b.consume(challenge, { pubkey: alice, address: '203.0.113.7' }),
    ]);
    expect(results.map((result) => result.verdict).sort()).toEqual(['ok', 'unknown']);
    expect(results.find((result) => result.verdict === 'ok')?.issued).toMatchObject({
      address: '203.0.113.7',
    });
  });

  it('refuses another key or address without consuming the challenge', async () => {
    const store = new ChallengeStore(dbs[0]!, clock);
    const { challenge } = await store.issue(alice, '203.0.113.7');
    expect((await store.consume(challenge, { pubkey: mallory })).verdict).toBe('other-key');
    expect((await store.consume(challenge, { pubkey: alice, address: '198.51.100.1' })).verdict).toBe(
      'other-address',
    );
    expect((await store.consume(challenge, { pubkey: alice, address: '203.0.113.7' })).verdict).toBe('ok');
  });

  it('expires after 120 s and is swept', async () => {
    const store = new ChallengeStore(dbs[0]!, clock);
    const { challenge } = await store.issue(alice, '203.0.113.7');
    clock.advance(121_000);
    expect((await store.consume(challenge, { pubkey: alice })).verdict).toBe('unknown');
    expect(await store.sweep()).toBe(1);
    expect([...dbs[0]!.challenges.getRange({})]).toHaveLength(0);
  });

  it('keeps at most a few pending challenges per address, dropping the oldest', async () => {
    const store = new ChallengeStore(dbs[0]!, clock);
    const issued: string[] = [];
    for (let i = 0; i < CHALLENGES_PER_ADDRESS + 5; i++) {
      issued.push((await store.issue(alice, '203.0.113.7')).challenge);
      clock.advance(1_000);
    }
    await store.issue(alice, '198.51.100.1');
    expect([...dbs[0]!.challenges.getRange({})]).toHaveLength(CHALLENGES_PER_ADDRESS + 1);
    expect(store.check(issued[0]!, { pubkey: alice })).toBe('unknown');
    expect(store.check(issued.at(-1)!, { pubkey: alice })).toBe('ok');
  });

  it('accepts a NIP-98 event id once across workers, until it is swept', async () => {
    const [a, b] = dbs.map((db) => new ReplayRecords(db.replay, clock)) as [ReplayRecords, ReplayRecords];
    const id = 'ab'.repeat(32);
    const until = Math.floor(clock.now() / 1000) + 120;
    expect((await Promise.all([a.claim(id, until), b.claim(id, until)])).sort()).toEqual([false, true]);
    clock.advance(121_000);
    expect(await a.sweep()).toBe(1);
    expect(await b.claim(id, until + 200)).toBe(true);
  });
});
