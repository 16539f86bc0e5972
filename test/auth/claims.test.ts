import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChallengeStore } from '../../src/auth/challenges.js';
import { FileClaims } from '../../src/auth/claims.js';
import { ManualClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/temp.js';

describe('file-backed claims shared by processes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const clock = new ManualClock();
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.cleanup());

  it('lets exactly one of two independent instances claim a key', async () => {
    // Two instances on one directory stand for two PM2 workers.
    const a = await new FileClaims(join(dir.path, 'c'), clock).init();
    const b = await new FileClaims(join(dir.path, 'c'), clock).init();
    const id = 'ab'.repeat(32);
    const results = await Promise.all([a.claim(id, clock.seconds() + 60), b.claim(id, clock.seconds() + 60)]);
    expect(results.sort()).toEqual([false, true]);
  });

  it('refuses keys that are not hex (they become file names)', async () => {
    const claims = await new FileClaims(join(dir.path, 'c'), clock).init();
    expect(await claims.claim('../../etc/passwd', 1)).toBe(false);
    expect(await claims.take('../x')).toBeNull();
  });

  it('issues challenges bound to a key, single-use, expiring after 120 s', async () => {
    const store = new ChallengeStore(await new FileClaims(join(dir.path, 'ch'), clock).init(), clock);
    const pk = 'cd'.repeat(32);
    const other = 'ef'.repeat(32);
    const first = await store.issue(pk);
    expect(first.expiresIn).toBe(120);
    expect(await store.issuedTo(first.challenge, pk)).toBe(true);
    expect(await store.issuedTo(first.challenge, other)).toBe(false);
    expect(await store.consume(first.challenge, pk)).toBe(true);
    expect(await store.consume(first.challenge, pk)).toBe(false);

    const second = await store.issue(pk);
    clock.advance(121_000);
    expect(await store.consume(second.challenge, pk)).toBe(false);
  });

  it('sweeps expired records only', async () => {
    const claims = await new FileClaims(join(dir.path, 's'), clock).init();
    await claims.claim('11'.repeat(32), clock.seconds() + 10);
    await claims.claim('22'.repeat(32), clock.seconds() + 1000);
    clock.advance(60_000);
    expect(await claims.sweep()).toBe(1);
    expect(await claims.claim('22'.repeat(32), clock.seconds() + 10)).toBe(false);
    expect(await claims.claim('11'.repeat(32), clock.seconds() + 10)).toBe(true);
  });
});
