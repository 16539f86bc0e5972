import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { createOutboxMailer } from './outbox.js';
import { createSmtpMailer } from './smtp.js';

export type { Mailer, OutgoingMail } from './types.js';
import type { Mailer } from './types.js';

export interface MailerOptions {
  clock: Clock;
  logger?: Logger;
}

/** SMTP when `SMTP_URL` is set, otherwise `.eml` files in `TMP_DIR/outbox/` (docs/api-contract.md §1). */
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
