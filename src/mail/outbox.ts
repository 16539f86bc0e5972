import { randomBytes } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { within } from '../fs/paths.js';
import { DependencyError } from '../errors.js';
import type { Mailer, MailReceipt, OutgoingMail } from './types.js';
import { messageOf } from './message.js';

export interface OutboxMailerOptions {
  tmpDir: string;
  from: string;
  replyTo?: string;
  clock: Clock;
  logger?: Logger;
}

export function outboxDir(tmpDir: string): string {
  return within(tmpDir, 'outbox');
}

/**
 * Without `SMTP_URL`, each mail becomes a complete RFC 5322 message in `TMP_DIR/outbox/<time>-<id>.eml`,
 * readable by any mail tool and easy to hand to a relay later. Written under a temp name and renamed,
 * so a reader never sees half a message; mode 600 because mails carry personal data.
 */
export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  const dir = outboxDir(options.tmpDir);
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: dir,
    async send(mail: OutgoingMail): Promise<MailReceipt> {
      const info = await composer.sendMail({
        ...messageOf(options, mail),
        date: new Date(options.clock.now()),
      });
      const stamp = localTimestamp(options.clock.now()).replace(/[:.]/g, '-');
      const path = within(dir, `${stamp}-${randomBytes(6).toString('hex')}.eml`);
      try {
        await writeFileAtomic(path, info.message as Buffer, { mode: 0o600 });
      } catch (error) {
        options.logger?.warn({ err: error, to: mail.to }, 'outbox write failed');
        throw new DependencyError('mail', 'failed', {
          en: 'The mail outbox cannot be written.',
          fr: 'La boîte d’envoi des mails ne peut pas être écrite.',
        });
      }
      options.logger?.info({ to: mail.to, messageId: info.messageId, path }, 'mail written to the outbox');
      return { accepted: true, messageId: info.messageId };
    },
    close: () => composer.close(),
  };
}
