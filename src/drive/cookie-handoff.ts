import type { UserRecord } from '../identity/user-files.js';

/**
 * HOOK(cookies): how the drive hands cookie-looking uploads to cookie intake (CONTRACT §7, §8; src/cookies/).
 * `app.ts` builds it from `looksLikeNetscapeCookies` and the `CookieVault`; `accept` copies the staged file
 * (mode 600) into the user directory and returns the §8 answer.
 */
export interface CookieHandoff {
  looksLikeCookies(head: Uint8Array): boolean;
  accept(user: UserRecord, stagedPath: string): Promise<object>;
}

const HEADER = /^#\s*(?:netscape\s+)?http\s+cookie\s+file/im;
const COOKIE_LINE =
  /^(?:#httponly_)?[^\t\n#]*\t(?:true|false)\t[^\t\n]*\t(?:true|false)\t-?\d+(?:\.\d*)?\t[^\t\n]*\t/im;

/**
 * Safety net when no cookie intake is wired in: a Netscape header or one cookie-shaped line is enough to
 * keep a file out of the public drive (a false positive costs a refused upload, a false negative leaks).
 */
export function looksLikeCookieFile(head: Uint8Array): boolean {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
  return HEADER.test(text) || COOKIE_LINE.test(text);
}
