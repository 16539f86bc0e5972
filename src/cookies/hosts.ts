import { parse } from 'tldts';

/**
 * Host names as they appear in column 1 of a cookie file, and the registrable domain ("site") they belong
 * to. The domain names a file in the user directory, so validation here is what keeps `../../x` or `a/b.com`
 * from ever becoming a path.
 */

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_SHAPE = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_HOST_LENGTH = 253;

/** A lower-case host name of letters, digits, `-` and `_` labels (the same rule as `get_cookie.sh`). */
export function isValidHost(host: string): boolean {
  return host.length > 0 && host.length <= MAX_HOST_LENGTH && HOST_SHAPE.test(host);
}

/** Column 1 of a cookie line: one leading dot removed (domain cookies), lower-cased; null when not a host. */
export function normaliseCookieHost(column: string): string | null {
  const host = (column.startsWith('.') ? column.slice(1) : column).toLowerCase();
  return isValidHost(host) ? host : null;
}

export type SiteVerdict = { ok: true; domain: string } | { ok: false; reason: 'public-suffix' };

/**
 * The registrable domain by the Public Suffix List, private section included, as browsers draw site
 * boundaries: `www.youtube.com` → `youtube.com`, `bbc.co.uk` ≠ `amazon.co.uk`, `a.github.io` ≠ `b.github.io`.
 * IP addresses and single-label hosts (`localhost`) have no registrable domain and stand for themselves;
 * a bare public suffix (`co.uk`, `com`) is no site at all: browsers refuse such cookies.
 */
export function siteOf(host: string): SiteVerdict {
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.domain) return { ok: true, domain: parsed.domain };
  if (parsed.isIcann === true || parsed.isPrivate === true) return { ok: false, reason: 'public-suffix' };
  return { ok: true, domain: host };
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** `notebooklm.google.com` → itself, then `google.com`; never the bare top-level label, never parts of an IP. */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  if (labels.length === 1 || IPV4.test(domain)) return [domain];
  return labels.slice(0, -1).map((_label, i) => labels.slice(i).join('.'));
}
