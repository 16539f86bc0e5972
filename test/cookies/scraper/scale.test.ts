import * as fs from 'node:fs/promises';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanFs } from '../../../src/cookies/scraper/scripts.js';
import { cookieText, createScanFixture, recordingScript, type ScanFixture } from './fixture.js';

const USERS = 10_000;
const WITH_COOKIES = 50;

/** The real file system, with every call counted by name. */
function countingFs(): { fs: ScanFs; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = {} as Record<string, unknown>;
  for (const name of ['readdir', 'stat', 'access', 'readFile'] as const) {
    wrapped[name] = (...args: unknown[]) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return (fs[name] as (...a: unknown[]) => unknown)(...args);
    };
  }
  return { fs: wrapped as unknown as ScanFs, calls };
}

describe(`a scan over ${USERS} user directories`, () => {
  let fx: ScanFixture;
  beforeAll(async () => {
    fx = await createScanFixture({ concurrency: 4 });
    const emails = Array.from({ length: USERS }, (_, i) => `user${String(i).padStart(5, '0')}@example.org`);
    for (let i = 0; i < emails.length; i += 200) {
      await Promise.all(
        emails.slice(i, i + 200).map(async (email, j) => {
          const dir = join(fx.dataRoot, 'nostr', email);
          await mkdir(dir);
          await Promise.all([
            writeFile(join(dir, 'HEX'), 'ab'.repeat(32)),
            writeFile(join(dir, 'NPUB'), 'npub1x'),
          ]);
          if ((i + j) % (USERS / WITH_COOKIES) === 0) {
            await writeFile(join(dir, '.youtube.com.cookie'), cookieText('youtube.com'), { mode: 0o600 });
          }
        }),
      );
    }
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));
  }, 120_000);
  afterAll(async () => fx.cleanup());

  it('lists each directory once, runs only where a cookie is, and touches no more files than that', async () => {
    const { fs: counted, calls } = countingFs();
    const mail = { send: () => Promise.reject(new Error('no mail expected')) };
    const started = performance.now();
    const summary = await fx.scan(mail, { fs: counted });
    const elapsed = performance.now() - started;
    console.info(
      `scan of ${USERS} users (${WITH_COOKIES} cookies, ${summary.ran} runs): ${Math.round(elapsed)} ms`,
    );

    expect(summary.ran).toBe(WITH_COOKIES);
    expect(await fx.out('runs')).toHaveLength(WITH_COOKIES);
    // One listing of DATA_ROOT/nostr, one per user, one of TMP_DIR (pruning), one of SCRIPTS_DIR.
    expect(calls.readdir).toBe(1 + USERS + 2);
    // Per cookie file: today's marker and the cookie itself; per domain: the script lookup.
    expect(calls.stat ?? 0).toBeLessThanOrEqual(2 * WITH_COOKIES + 1);
    expect(calls.access ?? 0).toBeLessThanOrEqual(1);
    expect(calls.readFile ?? 0).toBe(0);
    expect((await readdir(fx.tmpDir)).filter((n) => n.endsWith('.done'))).toHaveLength(WITH_COOKIES);

    // The same day again: all skipped, with the same number of listings and no run.
    const { fs: again, calls: againCalls } = countingFs();
    const secondStarted = performance.now();
    const second = await fx.scan(mail, { fs: again });
    console.info(
      `same-day re-scan of ${USERS} users (all skipped): ${Math.round(performance.now() - secondStarted)} ms`,
    );
    expect(second).toMatchObject({ ran: 0, skipped: WITH_COOKIES });
    expect(againCalls.readdir).toBe(1 + USERS + 2);
    expect(againCalls.stat ?? 0).toBeLessThanOrEqual(WITH_COOKIES + 1);
  }, 60_000);
});
