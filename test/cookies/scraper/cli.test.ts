import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../src/config/config.js';
import { headerOf } from '../../mail/smtp-server.js';
import { createScanFixture, type ScanFixture } from './fixture.js';

function station(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = join(PROJECT_ROOT, 'src', 'cli', 'main.ts');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), cli, ...args],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('station scrape --now', () => {
  let fx: ScanFixture;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    fx = await createScanFixture();
    env = {
      PATH: process.env.PATH,
      HOME: fx.root,
      DATA_ROOT: fx.dataRoot,
      TMP_DIR: fx.tmpDir,
      SCRIPTS_DIR: fx.scriptsDir,
      CAPTAINEMAIL: 'captain@example.net',
      SCRAPER_CONCURRENCY: '1',
      LOG_LEVEL: 'silent',
    };
    for (const email of ['alice@example.org', 'bob@example.org']) {
      await fx.addUser(email);
      await fx.writeCookie(email, 'youtube.com');
      await fx.writeCookie(email, 'unknown.org');
    }
    await fx.writeScript('youtube.com.sh', `#!/bin/sh\necho "$1" >> "${fx.outDir}/runs"\n`);
  });
  afterAll(async () => fx.cleanup());

  it('runs one user and domain and prints a JSON summary', async () => {
    const result = await station(
      ['scrape', '--now', '--user', 'Bob@Example.org', '--domain', 'youtube.com'],
      env,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ran: 1,
      skipped: 0,
      notified: 0,
      failed: 0,
      items: [{ email: 'bob@example.org', domain: 'youtube.com', outcome: 'ran', reason: 'ok', exitCode: 0 }],
    });
    expect(await fx.out('runs')).toEqual(['bob@example.org']);
  });

  it('without a filter scans everyone: the missing-scraper mails go to TMP_DIR/outbox when SMTP_URL is unset', async () => {
    const result = await station(['scrape', '--now'], env);
    const summary = JSON.parse(result.stdout) as Record<string, number>;
    expect(summary).toMatchObject({ ran: 1, skipped: 1, notified: 2, failed: 0 });
    const outbox = join(fx.tmpDir, 'outbox');
    const mails = await Promise.all(
      (await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')),
    );
    expect(mails.map((m) => headerOf(m, 'To')).sort()).toEqual(['alice@example.org', 'bob@example.org']);
    expect(headerOf(mails[0]!, 'Subject')).toMatch(/^Cookie unknown\.org : aucun programme correspondant/);
  });

  it('refuses to run without --now, and rejects unsafe filters (exit 2)', async () => {
    expect((await station(['scrape'], env)).code).toBe(2);
    expect((await station(['scrape', '--now', '--user', '../etc'], env)).code).toBe(2);
    expect((await station(['scrape', '--now', '--domain', '../../x'], env)).code).toBe(2);
    expect(await fx.out('runs')).toHaveLength(2);
  });
});
