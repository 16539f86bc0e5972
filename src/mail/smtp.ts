import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { DependencyError } from '../errors.js';
import type { Mailer, MailReceipt, OutgoingMail } from './types.js';
import { messageOf } from './message.js';

export interface SmtpMailerOptions {
  /** `smtp://` or `smtps://`, credentials allowed in the URL; never logged. */
  url: string;
  from: string;
  replyTo?: string;
  logger?: Logger;
  /** Milliseconds for connecting, the greeting and each command; a daily batch must not hang on a dead server. */
  timeoutMs?: number;
}

const UNREACHABLE = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND']);

/** The server's address without user or password, for logs and error sentences. */
export function publicSmtpTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

export function mailDependencyError(error: unknown, target: string): DependencyError {
  const code = (error as { code?: string }).code ?? '';
  const responseCode = (error as { responseCode?: number }).responseCode;
  if (code === 'ETIMEDOUT')
    return new DependencyError('mail', 'timeout', {
      en: `The mail server ${target} timed out.`,
      fr: `Le serveur de mail ${target} n’a pas répondu à temps.`,
    });
  if (UNREACHABLE.has(code))
    return new DependencyError('mail', 'down', {
      en: `The mail server ${target} cannot be reached.`,
      fr: `Le serveur de mail ${target} est injoignable.`,
    });
  const reply = responseCode ? ` (SMTP ${responseCode})` : '';
  return new DependencyError('mail', 'failed', {
    en: `The mail server ${target} refused the message${reply}.`,
    fr: `Le serveur de mail ${target} a refusé le message${reply}.`,
  });
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const target = publicSmtpTarget(options.url);
  const timeout = options.timeoutMs ?? 20_000;
  const transport = createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 3,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    target,
    async send(mail: OutgoingMail): Promise<MailReceipt> {
      let info;
      try {
        info = await transport.sendMail(messageOf(options, mail));
      } catch (error) {
        const failure = mailDependencyError(error, target);
        options.logger?.warn({ to: mail.to, code: failure.code, reason: failure.message }, 'mail not sent');
        throw failure;
      }
      const accepted = info.accepted.some((address) => addressOf(address) === mail.to.toLowerCase());
      options.logger?.info({ to: mail.to, messageId: info.messageId, accepted }, 'mail sent');
      return { accepted, messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

function addressOf(entry: string | { address: string }): string {
  return (typeof entry === 'string' ? entry : entry.address).toLowerCase();
}
