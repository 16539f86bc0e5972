import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGES_PER_ADDRESS } from '../../src/auth/challenges.js';
import { openStationDb } from '../../src/state/station-db.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { newKey } from '../helpers/nostr.js';

async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

/**
 * Finding: every challenge request wrote a file, bounded only by the per-IP rate limit, from which loopback
 * is exempt. Pending challenges are now records in the station database, bounded per client address.
 */
describe('challenge requests cannot fill the disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
  });
  afterAll(() => t.close());

  it('keeps a bounded number of pending challenges per address, and writes no file per request', async () => {
    const key = newKey();
    const addresses = ['127.0.0.1', ...Array.from({ length: 9 }, (_, i) => `198.51.100.${i + 1}`)];
    for (const remoteAddress of addresses) {
      for (let i = 0; i < 60; i++) {
        const answer = await t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}`, remoteAddress });
        expect(answer.statusCode).toBe(200);
      }
    }
    const db = await openStationDb(t.config.dataRoot);
    try {
      expect([...db.challenges.getRange({})].length).toBe(addresses.length * CHALLENGES_PER_ADDRESS);
    } finally {
      await db.close();
    }
    expect(await filesUnder(join(t.config.tmpDir, 'auth'))).toBe(0);
  });
});
