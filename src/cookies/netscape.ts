import { InvalidInput } from '../errors.js';
import { normaliseCookieHost, siteOf } from './hosts.js';
import { mayHoldCookieText } from './sniff.js';

/**
 * The Netscape cookie file format (curl, yt-dlp, "cookies.txt" browser extensions): an optional
 * `# Netscape HTTP Cookie File` header, `#` comments, and data lines of 7 TAB-separated fields —
 * domain, include-subdomains flag, path, secure flag, expiry (Unix seconds, 0 = session), name, value.
 * `#HttpOnly_<domain>` lines are cookies, not comments. Pure: no I/O. Error details carry line numbers,
 * never line content: cookie values are credentials and error details end up in logs.
 */

export type CookieLine =
  | { kind: 'blank' }
  | { kind: 'comment'; header: boolean }
  | { kind: 'cookie'; hostColumn: string; httpOnly: boolean; expires: number }
  | { kind: 'malformed' };

const HEADER = /^#\s*(?:netscape\s+)?http\s+cookie\s+file\b/i;
const HEADER_ANYWHERE = /^#\s*(?:netscape\s+)?http\s+cookie\s+file\b/im;
/** Fields 2 to 5 of a cookie line (classifyLine): flag, path, flag, the start of an expiry. */
const COOKIE_SHAPE = /\t(?:true|false)\t[^\t\n]*\t(?:true|false)\t-?\d/i;
const HTTP_ONLY_PREFIX = /^#httponly_/i;
/**
 * The start of a usual cookie line, up to the TAB after its expiry: what `classifyLine` accepts as a cookie
 * with this host column and expiry, found without splitting the line (a test checks the two agree). A line it
 * does not match goes through `classifyLine`.
 */
const WELL_FORMED_COOKIE =
  /^(?:#httponly_)?(?!#)([^\t\n]+)\t(?:true|false)\t[^\t\n]*\t(?:true|false)\t(-?\d{1,20}(?:\.\d*)?)\t/i;
const FLAG = /^(?:true|false)$/i;
const EXPIRY = /^-?\d{1,20}(?:\.\d*)?$/;
/** Latest second a JavaScript Date can hold; beyond it an expiry means "never" for our purposes. */
const MAX_EXPIRY_SECONDS = 8.64e12;

const UTF8_BOM_AS_LATIN1 = '\u00ef\u00bb\u00bf';

/** A UTF-8 byte-order mark, whether the line was decoded as UTF-8 or as Latin-1. */
export function stripBom(line: string): string {
  if (line.startsWith('\ufeff')) return line.slice(1);
  if (line.startsWith(UTF8_BOM_AS_LATIN1)) return line.slice(3);
  return line;
}

export function classifyLine(rawLine: string): CookieLine {
  const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (line.trim() === '') return { kind: 'blank' };
  let httpOnly = false;
  let data = line;
  if (HTTP_ONLY_PREFIX.test(line)) {
    httpOnly = true;
    data = line.slice('#HttpOnly_'.length);
  } else if (line.startsWith('#')) {
    return { kind: 'comment', header: HEADER.test(line) };
  }
  // Six fields is a cookie whose empty value lost its trailing TAB to an editor; curl accepts it too.
  const fields = data.split('\t');
  if (fields.length < 6) return { kind: 'malformed' };
  const [hostColumn = '', subdomains = '', , secure = '', expiry = ''] = fields;
  if (hostColumn === '' || !FLAG.test(subdomains) || !FLAG.test(secure) || !EXPIRY.test(expiry)) {
    return { kind: 'malformed' };
  }
  return { kind: 'cookie', hostColumn, httpOnly, expires: expirySeconds(expiry) };
}

/** Column 5 as Unix seconds; 0 for a session cookie (0, negative, or past what a Date can hold). */
function expirySeconds(column: string): number {
  const seconds = Math.floor(Number(column));
  return seconds > 0 && seconds < MAX_EXPIRY_SECONDS ? seconds : 0;
}

/** A usual cookie line's host column and expiry, read in one match; null sends the line to `classifyLine`. */
export function wellFormedCookieLine(line: string): { hostColumn: string; expires: number } | null {
  const match = WELL_FORMED_COOKIE.exec(line);
  return match ? { hostColumn: match[1] as string, expires: expirySeconds(match[2] as string) } : null;
}

/** How many bytes of an upload `looksLikeNetscapeCookies` wants to see. */
export const COOKIE_SNIFF_BYTES = 64 * 1024;

/**
 * True when the first bytes of a file look like a Netscape cookie file: a header line, or any cookie-shaped
 * line. Deliberately generous, whatever the file name: a false positive only keeps a file out of the public
 * drive, a false negative would publish someone's session credentials.
 */
export function looksLikeNetscapeCookies(firstBytes: Uint8Array | string): boolean {
  if (typeof firstBytes !== 'string' && !mayHoldCookieText(firstBytes)) return false;
  const text =
    typeof firstBytes === 'string'
      ? firstBytes
      : Buffer.from(firstBytes.buffer, firstBytes.byteOffset, firstBytes.byteLength).toString('latin1');
  // Every upload is checked: what no cookie line or header can lack rules most files out in one pass.
  const body = stripBom(text);
  if (!COOKIE_SHAPE.test(body) && !HEADER_ANYWHERE.test(body)) return false;
  const lines = body.split('\n');
  return lines.some((line) => {
    const classified = classifyLine(line);
    return classified.kind === 'cookie' || (classified.kind === 'comment' && classified.header);
  });
}

export interface CookieScan {
  /** Cookie lines, `#HttpOnly_` ones included. */
  cookies: number;
  header: boolean;
  /** Registrable domains, sorted. */
  domains: string[];
  /** More distinct domains than `MAX_TRACKED_DOMAINS` were seen; `domains` is a prefix. */
  moreDomains: boolean;
  /** Earliest expiry of a persistent cookie, Unix seconds; null when all are session cookies. */
  earliestExpiry: number | null;
}

/** Enough to tell the user what to split; bounds memory on hostile files. */
export const MAX_TRACKED_DOMAINS = 200;

/** Feeds lines one at a time (a file is never held whole); throws 400 AppErrors on invalid content. */
export class CookieScanner {
  private lineNumber = 0;
  private cookies = 0;
  private header = false;
  private readonly domains = new Set<string>();
  private moreDomains = false;
  private earliestExpiry: number | null = null;
  /** The last host column and its site: a file's lines mostly repeat one host, looked up once. */
  private last: { column: string; site: string } | null = null;

  feed(rawLine: string): void {
    this.lineNumber += 1;
    // The first line may start with a byte-order mark, which only classifyLine's path removes.
    const usual = this.lineNumber === 1 ? null : wellFormedCookieLine(rawLine);
    if (usual) {
      this.cookie(usual.hostColumn, usual.expires);
      return;
    }
    const line = classifyLine(this.lineNumber === 1 ? stripBom(rawLine) : rawLine);
    if (line.kind === 'blank') return;
    if (line.kind === 'comment') {
      this.header ||= line.header;
      return;
    }
    if (line.kind === 'malformed') {
      throw new InvalidInput('MALFORMED_COOKIE_LINE', {
        en: `Line ${this.lineNumber} is not a Netscape cookie line (7 TAB-separated fields: domain, TRUE/FALSE, path, TRUE/FALSE, expiry, name, value).`,
        fr: `La ligne ${this.lineNumber} n’est pas une ligne de cookie Netscape (7 champs séparés par des tabulations : domaine, TRUE/FALSE, chemin, TRUE/FALSE, expiration, nom, valeur).`,
      });
    }
    this.cookie(line.hostColumn, line.expires);
  }

  result(): CookieScan {
    return {
      cookies: this.cookies,
      header: this.header,
      domains: [...this.domains].sort(),
      moreDomains: this.moreDomains,
      earliestExpiry: this.earliestExpiry,
    };
  }

  private cookie(hostColumn: string, expires: number): void {
    const domain = this.last?.column === hostColumn ? this.last.site : this.siteOfColumn(hostColumn);
    this.cookies += 1;
    if (expires > 0 && (this.earliestExpiry === null || expires < this.earliestExpiry))
      this.earliestExpiry = expires;
    if (this.domains.has(domain)) return;
    if (this.domains.size < MAX_TRACKED_DOMAINS) this.domains.add(domain);
    else this.moreDomains = true;
  }

  /** The registrable domain of a host column; 400 when the column names no site. */
  private siteOfColumn(hostColumn: string): string {
    const host = normaliseCookieHost(hostColumn);
    if (!host) {
      throw new InvalidInput('INVALID_COOKIE_DOMAIN', {
        en: `Line ${this.lineNumber}: the domain column is not a valid host name (letters, digits, "-", "_" and dots only).`,
        fr: `Ligne ${this.lineNumber} : la colonne du domaine n’est pas un nom d’hôte valide (lettres, chiffres, « - », « _ » et points seulement).`,
      });
    }
    const site = siteOf(host);
    if (!site.ok) {
      throw new InvalidInput('PUBLIC_SUFFIX_COOKIE', {
        en: `Line ${this.lineNumber}: a cookie for a public suffix such as "${host}" belongs to no site.`,
        fr: `Ligne ${this.lineNumber} : un cookie pour un suffixe public comme « ${host} » n’appartient à aucun site.`,
      });
    }
    this.last = { column: hostColumn, site: site.domain };
    return site.domain;
  }
}

/** Scans a whole text at once (tests, small inputs); files go through `scanCookieFile`. */
export function scanCookieText(text: string): CookieScan {
  const scanner = new CookieScanner();
  for (const line of text.split('\n')) scanner.feed(line);
  return scanner.result();
}
