import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { createScraper, type Scraper } from '../../../src/cookies/scraper/service.js';
import type { OutgoingMail } from '../../../src/mail/mailer.js';
import { startFakeLeboncoin } from '../../scripts/fake-leboncoin.js';
import { installFakeYtDlp, youtubeCookie, type FakeYtDlp } from '../../scripts/fake-ytdlp.js';
import { cookieLine, createStation, netscapeFile, SCRIPTS, type TestStation } from '../../scripts/station.js';

// Results go into the drive through the real `station drive add` (src/cli/drive.ts, from the sources).
// Each `station drive add` the scripts run starts the CLI through tsx (2–3 s on a loaded machine).
describe('the shipped scripts, run by the scraper against local stand-ins', { timeout: 120_000 }, () => {
  let station: TestStation;
  let ytdlp: FakeYtDlp;
  let leboncoin: Awaited<ReturnType<typeof startFakeLeboncoin>>;
  let scraper: Scraper;
  const mails: OutgoingMail[] = [];

  beforeAll(async () => {
    station = await createStation();
    ytdlp = await installFakeYtDlp(station);
    leboncoin = await startFakeLeboncoin();
    const config = await loadConfig({
      HOME: station.root,
      DATA_ROOT: station.dataRoot,
      TMP_DIR: station.tmpDir,
      SCRIPTS_DIR: SCRIPTS,
    });
    scraper = createScraper({
      config,
      clock: { now: () => Date.now() }, // the scripts date their output with the real date
      mailer: {
        send: async (mail) => {
          mails.push(mail);
          return { accepted: true, messageId: `<${mails.length}@test>` };
        },
      },
      stationCli: station.env.STATION_CLI,
      extraEnv: {
        PATH: station.env.PATH!,
        HOME: station.root,
        ...(ytdlp.env as Record<string, string>),
        FAKE_YTDLP_LIKES: 'aaaaaaaaaa1,bbbbbbbbbb2',
        LEBONCOIN_API: leboncoin.url,
        LOG_LEVEL: 'warn',
      },
    });
    await station.addUser('alice@example.org', { lat: 43.6, lon: 1.44 });
    await station.addUser('bob@example.org', { lat: 43.6, lon: 1.44 });
    await station.writeCookie('alice@example.org', 'youtube.com', youtubeCookie('valid'));
    await station.writeCookie(
      'alice@example.org',
      'leboncoin.fr',
      netscapeFile([cookieLine('.leboncoin.fr', 'datadome', 'dd-value')]),
    );
    await station.writeCookie('bob@example.org', 'youtube.com', youtubeCookie('rotated'));
  }, 60_000);
  afterAll(async () => {
    await leboncoin?.close();
    await station?.close();
  });

  it('youtube.com.sh and leboncoin.fr.sh run with <email> <cookie> and put their results in the drive', async () => {
    const summary = await scraper.scan();
    const outcome = (email: string, domain: string) =>
      summary.items.find((i) => i.email === email && i.domain === domain);

    expect(outcome('alice@example.org', 'youtube.com')).toMatchObject({ outcome: 'ran' });
    expect(outcome('alice@example.org', 'leboncoin.fr')).toMatchObject({ outcome: 'ran' });
    expect(await station.driveFiles('alice@example.org', 'Videos')).toEqual([
      'Liked video aaaaaaaaaa1 [aaaaaaaaaa1].mp4',
      'Liked video bbbbbbbbbb2 [bbbbbbbbbb2].mp4',
    ]);
    const documents = await station.driveFiles('alice@example.org', 'Documents');
    expect(documents).toEqual([expect.stringMatching(/^leboncoin_dons_\d{4}-\d{2}-\d{2}\.json$/)]);
    const dons = JSON.parse(
      await readFile(
        join(station.dataRoot, 'nostr', 'alice@example.org', 'APP', 'uDRIVE', 'Documents', documents[0]!),
        'utf8',
      ),
    ) as unknown;
    expect(JSON.stringify(dons)).toContain('Donne armoire en chêne');
    expect(leboncoin.requests).toHaveLength(1);

    // A cookie YouTube rejects: exit 2, one mail asking for a fresh upload, nothing in the drive.
    expect(outcome('bob@example.org', 'youtube.com')).toMatchObject({
      reason: 'cookie_rejected',
      exitCode: 2,
      mailed: true,
    });
    expect(mails.map((m) => `${m.to} ${m.subject}`)).toEqual([
      "bob@example.org Cookie youtube.com : merci d'en déposer un nouveau / please upload a fresh one",
    ]);
    const log = await readFile(join(station.tmpDir, 'youtube.com_sync_bob@example.org.log'), 'utf8');
    expect(log).toMatch(/rejected the cookie[\s\S]*exit 2/);
    expect(log).not.toContain('secret-sid-value');

    // Same day again: nothing runs twice.
    const again = await scraper.scan();
    expect(again.ran).toBe(0);
    expect(again.items.every((i) => i.reason === 'already_ran_today')).toBe(true);
  }, 120_000);
});
