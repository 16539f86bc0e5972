import { within } from '../../fs/paths.js';
import { domainOfFileName } from '../files.js';
import { isValidHost } from '../hosts.js';

/**
 * File names of the scraper (docs/api-contract.md §3, §12). Domains come from cookie file names and e-mails
 * from directory names, so both are re-validated before they become part of a path or a script argument.
 */

/** A host name as cookie intake validates it, with at least one dot: the scraper has no single-label sites. */
export function isScraperDomain(value: string): boolean {
  return value.includes('.') && isValidHost(value);
}

/** `.youtube.com.cookie` → `youtube.com`; anything else (including `.cookie.txt`) → null. */
export function cookieFileDomain(fileName: string): string | null {
  const domain = domainOfFileName(fileName);
  return domain && isScraperDomain(domain) ? domain : null;
}

/** `TMP_DIR/<domain>_sync_<email>_<YYYY-MM-DD>.done`: present = that day's run has started. */
export function markerPath(tmpDir: string, domain: string, email: string, date: string): string {
  return within(tmpDir, `${domain}_sync_${email}_${date}.done`);
}

/** Matches markers (and their day) so that those of past days can be pruned. */
export const MARKER_NAME = /^[^/]+_sync_[^/]+_(\d{4}-\d{2}-\d{2})\.done$/;

/** `TMP_DIR/<domain>_sync_<email>.log`, appended to by every run. */
export function logPath(tmpDir: string, domain: string, email: string): string {
  return within(tmpDir, `${domain}_sync_${email}.log`);
}

/** `<user dir>/.<domain>_notified`: the missing-scraper mail for that domain was accepted on that date. */
export function notifiedPath(userDir: string, domain: string): string {
  return within(userDir, `.${domain}_notified`);
}

/** `<user dir>/.<domain>_refresh_notified`: which cookie file version the user was asked to replace. */
export function refreshNotifiedPath(userDir: string, domain: string): string {
  return within(userDir, `.${domain}_refresh_notified`);
}

/**
 * `TMP_DIR/<domain>_<purpose>_<email>_<date>.claim`: held while one process sends a mail, so overlapping
 * scans (the daily run and an operator's `scrape --now`) never send it twice. Dated, so a crash leaves
 * at most one day's stale claim behind.
 */
export function claimPath(
  tmpDir: string,
  purpose: string,
  domain: string,
  email: string,
  date: string,
): string {
  return within(tmpDir, `${domain}_${purpose}_${email}_${date}.claim`);
}

export const CLAIM_NAME = /^[^/]+_[a-z]+_[^/]+_(\d{4}-\d{2}-\d{2})\.claim$/;
