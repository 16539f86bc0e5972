import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DependencyError } from '../../../src/errors.js';
import { createSmtpMailer } from '../../../src/mail/smtp.js';
import type { Mailer } from '../../../src/mail/mailer.js';
import {
  deadSmtpUrl,
  headerOf,
  startSmtpServer,
  textOf,
  type TestSmtpServer,
} from '../../mail/smtp-server.js';
import { cookieText, createScanFixture, exists, recordingScript, type ScanFixture } from './fixture.js';

const DAY = 86_400_000;

describe('missing scraper → one mail per (user, domain), through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  let fx: ScanFixture;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = createSmtpMailer({ url: smtp.url, from: 'station@example.net' });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    fx = await createScanFixture();
  });
  afterEach(async () => fx.cleanup());

  it('sends exactly one mail per (user, domain) across two scans, and none for a domain with a script', async () => {
    for (const email of ['alice@example.org', 'bob@example.org']) {
      await fx.addUser(email);
      await fx.writeCookie(email, 'unknown.org');
      await fx.writeCookie(email, 'known.org');
    }
    await fx.writeCookie('alice@example.org', 'other.net');
    await fx.writeScript('known.org.sh', recordingScript('known'));

    const first = await fx.scan(mailer);
    fx.clock.advance(DAY); // the next day's scan
    const second = await fx.scan(mailer);

    const recipients = smtp.received.map((m) => `${m.to.join(',')} ${headerOf(m.raw, 'Subject')}`).sort();
    expect(recipients).toEqual([
      'alice@example.org Cookie other.net : aucun programme correspondant / no matching program',
      'alice@example.org Cookie unknown.org : aucun programme correspondant / no matching program',
      'bob@example.org Cookie unknown.org : aucun programme correspondant / no matching program',
    ]);
    expect(first.notified).toBe(3);
    expect(second.notified).toBe(0);
    expect(second.items.filter((i) => i.reason === 'no_script_already_notified')).toHaveLength(3);
    // The script's domain ran each day instead (no mail).
    expect(await fx.out('runs')).toHaveLength(4);
    const marker = join(fx.userDir('alice@example.org'), '.unknown.org_notified');
    expect(await readFile(marker, 'utf8')).toBe('2026-11-22\n');
    expect((await stat(marker)).mode & 0o777).toBe(0o600);
  });

  it('explains in French and English how to ask the captain (CAPTAINEMAIL) for a custom scraper', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'unknown.org');
    await fx.scan(mailer);
    const text = textOf(smtp.received[0]!.raw);
    expect(text).toContain('unknown.org');
    expect(text).toContain('captain@example.net');
    expect(text).toMatch(/Pour demander un scraper sur mesure/);
    expect(text).toMatch(/To ask for a custom scraper/);
    // The cookie's content never goes into a mail.
    expect(smtp.received[0]!.raw).not.toContain('v0');
  });

  it('without CAPTAINEMAIL the mail still says whom to ask', async () => {
    const bare = await createScanFixture({ captainEmail: null });
    await bare.addUser('alice@example.org');
    await bare.writeCookie('alice@example.org', 'unknown.org');
    await bare.scan(mailer);
    const text = textOf(smtp.received[0]!.raw);
    expect(text).toContain('your station captain');
    expect(text).not.toContain('null');
    await bare.cleanup();
  });

  it('a mail server outage leaves no _notified marker; the next scan sends the mail', async () => {
    await fx.addUser('alice@example.org');
    await fx.addUser('bob@example.org');
    await fx.writeCookie('alice@example.org', 'unknown.org');
    await fx.writeCookie('bob@example.org', 'unknown.org');
    const down = createSmtpMailer({ url: await deadSmtpUrl(), from: 'station@example.net' });

    const failed = await fx.scan(down);
    down.close();
    expect(failed.failed).toBe(2);
    expect(failed.items.map((i) => i.reason)).toEqual([
      'no_script_mail_unavailable',
      'no_script_mail_unavailable',
    ]);
    expect(await exists(join(fx.userDir('alice@example.org'), '.unknown.org_notified'))).toBe(false);
    expect(await exists(join(fx.userDir('bob@example.org'), '.unknown.org_notified'))).toBe(false);

    const retried = await fx.scan(mailer); // same day: nothing was sent, so nothing blocks the retry
    expect(retried.notified).toBe(2);
    expect(smtp.received).toHaveLength(2);
    expect(await exists(join(fx.userDir('alice@example.org'), '.unknown.org_notified'))).toBe(true);
  });

  it('once the mail server is found down, the rest of the scan skips mail instead of trying each user', async () => {
    for (let i = 0; i < 6; i++) {
      await fx.addUser(`user${i}@example.org`);
      await fx.writeCookie(`user${i}@example.org`, 'unknown.org');
    }
    let attempts = 0;
    const down = {
      send: async () => {
        attempts += 1;
        throw new DependencyError('mail', 'down', {
          en: 'The mail server cannot be reached.',
          fr: 'Le serveur de mail est injoignable.',
        });
      },
    };
    const summary = await fx.scan(down);
    expect(summary.items.map((i) => i.reason)).toEqual(Array(6).fill('no_script_mail_unavailable'));
    // At most the mails already under way when the first failure came back (two at a time).
    expect(attempts).toBeLessThanOrEqual(2);
  });

  it('a recipient the server refuses is retried next scan, not recorded', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'unknown.org');
    smtp.rejectRecipients.add('alice@example.org');
    expect((await fx.scan(mailer)).items[0]).toMatchObject({
      outcome: 'failed',
      reason: 'no_script_mail_unavailable',
    });
    smtp.rejectRecipients.clear();
    expect((await fx.scan(mailer)).items[0]).toMatchObject({ outcome: 'notified', reason: 'no_script' });
    expect(smtp.received).toHaveLength(1);
  });

  it('two overlapping scans send the mail once', async () => {
    for (let i = 0; i < 5; i++) {
      await fx.addUser(`user${i}@example.org`);
      await fx.writeCookie(`user${i}@example.org`, 'unknown.org');
    }
    const [a, b] = await Promise.all([fx.scan(mailer), fx.scan(mailer)]);
    expect(smtp.received).toHaveLength(5);
    expect(a.notified + b.notified).toBe(5);
  });

  it('expired cookies are not run; one mail asking for a fresh upload per file version', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeScript('known.org.sh', recordingScript('known'));
    const past = Math.floor(fx.clock.now() / 1000) - 3600;
    await fx.writeCookie('alice@example.org', 'known.org', cookieText('known.org', [past, past - 10]));

    const first = await fx.scan(mailer);
    expect(first.items[0]).toMatchObject({ outcome: 'notified', reason: 'cookie_expired' });
    expect(await fx.out('runs')).toEqual([]);
    fx.clock.advance(DAY);
    expect((await fx.scan(mailer)).items[0]).toMatchObject({
      outcome: 'skipped',
      reason: 'cookie_expired_already_notified',
    });
    expect(smtp.received).toHaveLength(1);
    expect(headerOf(smtp.received[0]!.raw, 'Subject')).toBe(
      "Cookie known.org : merci d'en déposer un nouveau / please upload a fresh one",
    );
    expect(textOf(smtp.received[0]!.raw)).toMatch(/all the cookies of your known.org file have expired/);

    // A new upload that is expired as well is a new version: one more mail.
    await fx.writeCookie('alice@example.org', 'known.org', cookieText('known.org', [past - 20]));
    expect((await fx.scan(mailer)).notified).toBe(1);
    expect(smtp.received).toHaveLength(2);

    // A fresh upload runs again; a file with a session cookie (expiry 0) is never "expired".
    await fx.writeCookie('alice@example.org', 'known.org', cookieText('known.org', [past, 0]));
    expect((await fx.scan(mailer)).items[0]).toMatchObject({ outcome: 'ran' });
    expect(await fx.out('runs')).toHaveLength(1);
  });

  it('a script exiting 2 (cookie rejected) → one refresh mail per cookie version', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'known.org');
    await fx.writeScript('known.org.sh', '#!/bin/sh\necho "rejected" >&2\nexit 2\n');

    const first = await fx.scan(mailer);
    expect(first.items[0]).toMatchObject({
      outcome: 'failed',
      reason: 'cookie_rejected',
      exitCode: 2,
      mailed: true,
    });
    expect(textOf(smtp.received[0]!.raw)).toMatch(/known.org refused your cookie/);
    fx.clock.advance(DAY);
    const second = await fx.scan(mailer);
    expect(second.items[0]).toMatchObject({ reason: 'cookie_rejected', mailed: false });
    expect(smtp.received).toHaveLength(1);
    await fx.writeCookie('alice@example.org', 'known.org'); // the user uploads again, still refused
    fx.clock.advance(DAY);
    expect((await fx.scan(mailer)).items[0]).toMatchObject({ mailed: true });
    expect(smtp.received).toHaveLength(2);
  });
});
