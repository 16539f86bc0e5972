import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { scriptEnvironment, stationUrl } from '../../../src/cookies/scraper/environment.js';
import { createScraper } from '../../../src/cookies/scraper/service.js';
import { createScanFixture, type ScanFixture } from './fixture.js';

const config = {
  dataRoot: '/srv/game',
  tmpDir: '/srv/tmp',
  scriptsDir: '/srv/scripts',
  host: '0.0.0.0',
  port: 54321,
  ipfsApi: 'http://127.0.0.1:5001',
  ipfsGateway: 'http://127.0.0.1:8080',
  driveQuotaBytes: 650 * 1024 * 1024,
};

describe('scriptEnvironment', () => {
  it('gives scripts the station layout and their own settings, never the service secrets', () => {
    const env = scriptEnvironment({
      config,
      stationCli: '/usr/bin/node /opt/station/dist/src/cli/main.js',
      inherited: {
        PATH: '/usr/bin:/bin',
        HOME: '/home/station',
        LANG: 'C.UTF-8',
        SMTP_URL: 'smtps://user:password@mail.example.net',
        PAYMENT_COMMAND: '/opt/pay {dunikey}',
        UPLANETNAME: 'swarm-secret',
        CAPTAINEMAIL: 'captain@example.net',
        SCRAPER_AT: '20:12',
        AWS_SECRET_ACCESS_KEY: 'x',
        YTDLP: '/usr/local/bin/yt-dlp',
        YOUTUBE_DAILY_MAX: '5',
        LEBONCOIN_RADIUS_KM: '20',
        PYTHON: '/usr/bin/python3',
        SCRAPER_PROXY: 'http://proxy:3128',
      },
    });
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/station',
      LANG: 'C.UTF-8',
      YTDLP: '/usr/local/bin/yt-dlp',
      YOUTUBE_DAILY_MAX: '5',
      LEBONCOIN_RADIUS_KM: '20',
      PYTHON: '/usr/bin/python3',
      SCRAPER_PROXY: 'http://proxy:3128',
      DATA_ROOT: '/srv/game',
      TMP_DIR: '/srv/tmp',
      SCRIPTS_DIR: '/srv/scripts',
      STATION_URL: 'http://127.0.0.1:54321',
      STATION_CLI: '/usr/bin/node /opt/station/dist/src/cli/main.js',
      IPFS_API: 'http://127.0.0.1:5001',
      IPFS_GATEWAY: 'http://127.0.0.1:8080',
      DRIVE_QUOTA_MB: '650',
    });
  });

  it('STATION_URL reaches the API whatever it listens on', () => {
    expect(stationUrl({ host: '::', port: 8000 })).toBe('http://127.0.0.1:8000');
    expect(stationUrl({ host: '192.168.1.5', port: 54321 })).toBe('http://192.168.1.5:54321');
    expect(stationUrl({ host: '::1', port: 54321 })).toBe('http://[::1]:54321');
  });
});

describe('a script run by the scraper', () => {
  let fx: ScanFixture;
  beforeEach(async () => {
    fx = await createScanFixture();
  });
  afterEach(async () => fx.cleanup());

  it('sees exactly the allowed variables (the test process has many more)', async () => {
    const full = await loadConfig({
      HOME: fx.root,
      DATA_ROOT: fx.dataRoot,
      TMP_DIR: fx.tmpDir,
      SCRIPTS_DIR: fx.scriptsDir,
      SMTP_URL: 'smtp://user:pw@127.0.0.1:9',
    });
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'env.org');
    await fx.writeScript('env.org.sh', '#!/bin/sh\nenv > "$OUT/env"\n');
    const scraper = createScraper({
      config: full,
      clock: fx.clock,
      mailer: { send: () => Promise.reject(new Error('no mail expected')) },
      extraEnv: { OUT: fx.outDir },
    });
    expect((await scraper.scan()).ran).toBe(1);

    const names = (await readFile(join(fx.outDir, 'env'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('=')[0]!);
    const allowed =
      /^(PATH|HOME|LANG|LC_ALL|LC_CTYPE|TZ|USER|LOGNAME|YTDLP|PYTHON|(YOUTUBE|LEBONCOIN|SCRAPER)_\w+|DATA_ROOT|TMP_DIR|SCRIPTS_DIR|STATION_URL|STATION_CLI|IPFS_GATEWAY|DRIVE_QUOTA_MB|OUT|PWD|SHLVL|_)$/;
    expect(names.filter((name) => !allowed.test(name))).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining(['DATA_ROOT', 'TMP_DIR', 'SCRIPTS_DIR', 'STATION_URL', 'STATION_CLI']),
    );
    const env = await readFile(join(fx.outDir, 'env'), 'utf8');
    expect(env).toContain(`DATA_ROOT=${fx.dataRoot}\n`);
    expect(env).not.toContain('user:pw');
  });
});
