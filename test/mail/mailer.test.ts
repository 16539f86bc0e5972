import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DependencyError } from '../../src/errors.js';
import { createMailer } from '../../src/mail/mailer.js';
import { createSmtpMailer, publicSmtpTarget } from '../../src/mail/smtp.js';
import { ManualClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/temp.js';
import { deadSmtpUrl, headerOf, startSmtpServer, textOf, type TestSmtpServer } from './smtp-server.js';

const mail = {
  to: 'alice@example.org',
  subject: 'Cookie youtube.com : aucun programme associé / no matching program',
  text: 'Bonjour Alice, voici le détail : secret-token-123\n',
};

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'trace' }, sink), lines };
}

describe('SMTP mailer (real smtp-server on loopback)', () => {
  let server: TestSmtpServer;
  beforeAll(async () => {
    server = await startSmtpServer();
  });
  afterAll(async () => server.close());
  afterEach(() => {
    server.received.length = 0;
    server.rejectRecipients.clear();
  });

  it('delivers one message with sender, recipient, subject and UTF-8 text', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createSmtpMailer({
      url: server.url,
      from: 'station@example.net',
      replyTo: 'captain@example.net',
      logger,
    });
    const receipt = await mailer.send(mail);
    mailer.close();

    expect(receipt.accepted).toBe(true);
    expect(receipt.messageId).toMatch(/^<.+@.+>$/);
    expect(server.received).toHaveLength(1);
    const [received] = server.received;
    expect(received!.from).toBe('station@example.net');
    expect(received!.to).toEqual(['alice@example.org']);
    expect(headerOf(received!.raw, 'Subject')).toBe(mail.subject);
    expect(headerOf(received!.raw, 'Reply-To')).toBe('captain@example.net');
    expect(textOf(received!.raw)).toContain('voici le détail');
    // Bodies (which may carry personal data) never reach the log; the recipient and message id do.
    const log = lines.join('');
    expect(log).toContain(receipt.messageId);
    expect(log).not.toContain('secret-token-123');
    expect(log).not.toContain('voici');
  });

  it('a server that is down is DependencyError MAIL_DOWN (503), nothing logged but the code', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createSmtpMailer({ url: await deadSmtpUrl(), from: 'station@example.net', logger });
    const error = await mailer.send(mail).catch((e: unknown) => e);
    mailer.close();
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'MAIL_DOWN', dependency: 'mail', kind: 'down' });
    expect(lines.join('')).not.toContain('secret-token-123');
  });

  it('a server that never answers is DependencyError MAIL_TIMEOUT (504) after the time limit', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = createSmtpMailer({
      url: `smtp://127.0.0.1:${port}`,
      from: 'station@example.net',
      timeoutMs: 200,
    });
    const error = await mailer.send(mail).catch((e: unknown) => e);
    mailer.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'MAIL_TIMEOUT', dependency: 'mail', kind: 'timeout' });
  });

  it('a refused recipient is DependencyError MAIL_FAILED (502) naming the SMTP reply', async () => {
    server.rejectRecipients.add('alice@example.org');
    const mailer = createSmtpMailer({ url: server.url, from: 'station@example.net' });
    const error = await mailer.send(mail).catch((e: unknown) => e);
    mailer.close();
    expect(error).toMatchObject({ code: 'MAIL_FAILED', kind: 'failed' });
    expect((error as Error).message).toContain('550');
    expect(server.received).toHaveLength(0);
  });

  it('never shows credentials of SMTP_URL in its target or errors', async () => {
    const url = (await deadSmtpUrl()).replace('smtp://', 'smtp://user:hunter2@');
    expect(publicSmtpTarget(url)).not.toContain('hunter2');
    const mailer = createSmtpMailer({ url, from: 'station@example.net' });
    const error = (await mailer.send(mail).catch((e: unknown) => e)) as Error;
    mailer.close();
    expect(error.message).not.toContain('hunter2');
    expect(mailer.target).toBe(publicSmtpTarget(url));
  });

  it('createMailer uses SMTP when SMTP_URL is set', async () => {
    const dir = await tempDir();
    const mailer = createMailer(
      { smtpUrl: server.url, mailFrom: 'station@example.net', captainEmail: null, tmpDir: dir.path },
      { clock: new ManualClock() },
    );
    await mailer.send(mail);
    mailer.close();
    expect(server.received).toHaveLength(1);
    expect(await readdir(dir.path)).toEqual([]);
    await dir.cleanup();
  });
});

describe('outbox mailer (SMTP_URL unset)', () => {
  it('writes each mail as a complete .eml file in TMP_DIR/outbox, mode 600, no temp file left', async () => {
    const dir = await tempDir();
    const clock = new ManualClock(new Date(2026, 10, 22, 20, 12, 5).getTime());
    const config = {
      smtpUrl: null,
      mailFrom: 'station@example.net',
      captainEmail: 'captain@example.net',
      tmpDir: dir.path,
    };
    const mailer = createMailer(config, { clock });
    const first = await mailer.send(mail);
    const second = await mailer.send({ ...mail, to: 'bob@example.org' });
    mailer.close();

    expect(first.accepted && second.accepted).toBe(true);
    const outbox = join(dir.path, 'outbox');
    const names = (await readdir(outbox)).sort();
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(name).toMatch(/^2026-11-22T20-12-05-000-[0-9a-f]{12}\.eml$/);
      expect((await stat(join(outbox, name))).mode & 0o777).toBe(0o600);
    }
    const messages = await Promise.all(names.map((n) => readFile(join(outbox, n), 'utf8')));
    const toAlice = messages.find((m) => headerOf(m, 'To') === 'alice@example.org')!;
    expect(headerOf(toAlice, 'From')).toBe('station@example.net');
    expect(headerOf(toAlice, 'Reply-To')).toBe('captain@example.net');
    expect(headerOf(toAlice, 'Subject')).toBe(mail.subject);
    expect(headerOf(toAlice, 'Message-ID')).toBe(first.messageId);
    expect(textOf(toAlice)).toContain('voici le détail');
    expect(messages.some((m) => headerOf(m, 'To') === 'bob@example.org')).toBe(true);
    await dir.cleanup();
  });

  it('an outbox that cannot be written is DependencyError MAIL_FAILED', async () => {
    const dir = await tempDir();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir.path, 'outbox'), 'a file where the directory should be');
    const mailer = createMailer(
      { smtpUrl: null, mailFrom: 'station@example.net', captainEmail: null, tmpDir: dir.path },
      { clock: new ManualClock() },
    );
    await expect(mailer.send(mail)).rejects.toMatchObject({ code: 'MAIL_FAILED' });
    await dir.cleanup();
  });
});
