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
