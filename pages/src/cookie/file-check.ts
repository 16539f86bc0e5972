/**
 * Whether a chosen file looks like a Netscape cookie export, checked in the page before anything is sent:
 * the station files anything else in the public drive when it reaches `/api/fileupload`, and a photo
 * picked by mistake on the cookie page must not end up there. The same rule as the station's
 * (`looksLikeNetscapeCookies` in src/cookies/netscape.ts, which stays the judge: the page also asks it to
 * refuse a non-cookie file): the `# Netscape HTTP Cookie File` header, or one line of 6 or 7 TAB-separated
 * fields with TRUE/FALSE flags and a numeric expiry (`#HttpOnly_` lines are cookies).
 */

/** As much of the file as the station looks at. */
const SNIFF_BYTES = 64 * 1024;
const HEADER = /^#\s*(?:netscape\s+)?http\s+cookie\s+file\b/i;
const HTTP_ONLY_PREFIX = /^#httponly_/i;
const FLAG = /^(?:true|false)$/i;
const EXPIRY = /^-?\d{1,20}(?:\.\d*)?$/;

function isCookieLine(rawLine: string): boolean {
  const line = rawLine.replace(/^\ufeff/, '').replace(/\r$/, '');
  if (HEADER.test(line)) return true;
  const data = HTTP_ONLY_PREFIX.test(line) ? line.slice('#HttpOnly_'.length) : line;
  if (data.startsWith('#')) return false;
  const [host = '', subdomains = '', , secure = '', expiry = '', ...rest] = data.split('\t');
  return rest.length >= 1 && host !== '' && FLAG.test(subdomains) && FLAG.test(secure) && EXPIRY.test(expiry);
}

export async function looksLikeCookieFile(file: Blob): Promise<boolean> {
  const head = await file.slice(0, SNIFF_BYTES).arrayBuffer();
  // Latin-1 maps every byte to one character: a binary file (a photo) reads as text that matches nothing.
  const text = new TextDecoder('latin1').decode(head);
  return text.split('\n').some(isCookieLine);
}
