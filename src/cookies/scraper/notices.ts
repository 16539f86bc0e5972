import type { Logger } from 'pino';
import { writeFileAtomic } from '../../fs/atomic.js';
import { DependencyError, StationError } from '../../errors.js';
import type { Mailer, OutgoingMail } from '../../mail/mailer.js';
import type { CookieFile } from './cookie-files.js';
import { claimPath, notifiedPath, refreshNotifiedPath } from './layout.js';
import { missingScraperMail, refreshCookieMail, type RefreshReason } from './mail-texts.js';
import { withClaim } from './markers.js';
import type { ScanFs } from './scripts.js';

export type NoticeResult =
  /** The mail was accepted and recorded. */
  | 'sent'
  /** Already sent earlier (or being sent right now by an overlapping scan). */
  | 'already'
  /** Not sent (server down, refused, or skipped after an outage earlier in this scan): retried next scan. */
  | 'unavailable';

export interface NoticeContext {
  mailer: Pick<Mailer, 'send'>;
  fs: Pick<ScanFs, 'stat' | 'readFile'>;
  tmpDir: string;
  /** Local date of the scan, `YYYY-MM-DD`. */
  date: string;
  captainEmail: string | null;
  logger?: Logger;
  /**
   * Set by the first mail that could not be delivered because the server is down or slow: the rest of the
   * scan then skips mail at once instead of waiting out a time limit per user.
   */
  mailOutage: { active: boolean };
}

/** One missing-scraper mail per (user, domain) ever, recorded in `.<domain>_notified` once accepted. */
export async function notifyMissingScraper(file: CookieFile, context: NoticeContext): Promise<NoticeResult> {
  const marker = notifiedPath(file.userDir, file.domain);
  if (await exists(context, marker)) return 'already';
  const mail = missingScraperMail(file.email, file.domain, context.captainEmail);
  return sendOnce(file, 'notify', context, mail, async () => {
    if (await exists(context, marker)) return false;
    return { record: () => writeFileAtomic(marker, `${context.date}\n`, { mode: 0o600 }) };
  });
}

/**
 * One "please upload a fresh cookie" mail per cookie file version (`version` changes with every upload),
 * recorded in `.<domain>_refresh_notified` as `<version> TAB <date> TAB <reason>`.
 */
export async function notifyRefresh(
  file: CookieFile,
  version: string,
  reason: RefreshReason,
  context: NoticeContext,
): Promise<NoticeResult> {
  const marker = refreshNotifiedPath(file.userDir, file.domain);
  const alreadyFor = async () =>
    (await context.fs.readFile(marker, 'utf8').catch(() => '')).split('\t')[0] === version;
  if (await alreadyFor()) return 'already';
  const mail = refreshCookieMail(file.email, file.domain, reason, context.captainEmail);
  return sendOnce(file, 'refresh', context, mail, async () => {
    if (await alreadyFor()) return false;
    return {
      record: () => writeFileAtomic(marker, `${version}\t${context.date}\t${reason}\n`, { mode: 0o600 }),
    };
  });
}

async function sendOnce(
  file: CookieFile,
  purpose: string,
  context: NoticeContext,
  mail: OutgoingMail,
  prepare: () => Promise<false | { record: () => Promise<void> }>,
): Promise<NoticeResult> {
  if (context.mailOutage.active) return 'unavailable';
  const claim = claimPath(context.tmpDir, purpose, file.domain, file.email, context.date);
  const outcome = await withClaim(claim, async (): Promise<NoticeResult> => {
    const pending = await prepare();
    if (!pending) return 'already';
    try {
      const receipt = await context.mailer.send(mail);
      if (!receipt.accepted) return 'unavailable';
    } catch (error) {
      if (error instanceof DependencyError && error.kind !== 'failed') context.mailOutage.active = true;
      context.logger?.warn(
        { email: file.email, domain: file.domain, purpose, code: (error as StationError).code },
        'scraper mail not sent; retried next scan',
      );
      return 'unavailable';
    }
    await pending.record();
    return 'sent';
  });
  return outcome.claimed ? outcome.value : 'already';
}

async function exists(context: NoticeContext, path: string): Promise<boolean> {
  return context.fs.stat(path).then(
    () => true,
    () => false,
  );
}
