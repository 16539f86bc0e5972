import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { createOutboxMailer } from './outbox.js';
import { createSmtpMailer } from './smtp.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailReceipt {
  /** True when the server (or the outbox) took responsibility for delivering to `to`. */
  accepted: boolean;
  messageId: string;
}

/**
 * The only thing callers know about mail. Failures to reach or use the mail server throw
 * `DependencyError('mail', …)`; message bodies may hold personal data and are never logged.
 */
export interface Mailer {
  /** Where mail goes, for logs and health output: `smtp://host:port` (no credentials) or the outbox path. */
  readonly target: string;
  send(mail: OutgoingMail): Promise<MailReceipt>;
  close(): void;
}

export interface MailerOptions {
  clock: Clock;
  logger?: Logger;
}

/** SMTP when `SMTP_URL` is set, otherwise `.eml` files in `TMP_DIR/outbox/` (CONTRACT §1). */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'captainEmail' | 'tmpDir'>,
  options: MailerOptions,
): Mailer {
  const from = config.mailFrom;
  const replyTo = config.captainEmail ?? undefined;
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from, replyTo, logger: options.logger })
    : createOutboxMailer({ tmpDir: config.tmpDir, from, replyTo, ...options });
}
