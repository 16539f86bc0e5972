import type { SendMailOptions } from 'nodemailer';
import type { OutgoingMail } from './types.js';

export interface Sender {
  from: string;
  replyTo?: string;
}

/** The message nodemailer builds for `mail`: the same whether it goes to an SMTP server or the outbox. */
export function messageOf(sender: Sender, mail: OutgoingMail): SendMailOptions {
  return {
    from: sender.from,
    replyTo: sender.replyTo,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  };
}
