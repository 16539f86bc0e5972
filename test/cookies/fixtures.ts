/** Cookie-file builders shared by the cookie tests. The values look like real session cookies on purpose. */

export function cookieLine(
  host: string,
  options: { expires?: number; name?: string; value?: string; path?: string } = {},
): string {
  const subdomains = host.startsWith('.') ? 'TRUE' : 'FALSE';
  return [
    host,
    subdomains,
    options.path ?? '/',
    'TRUE',
    String(options.expires ?? 1_900_000_000),
    options.name ?? 'SID',
    options.value ?? 'c2VjcmV0LXNlc3Npb24tdmFsdWU',
  ].join('\t');
}

export function cookieFile(lines: string[], options: { header?: boolean; eol?: string } = {}): string {
  const eol = options.eol ?? '\n';
  const head =
    options.header === false
      ? []
      : ['# Netscape HTTP Cookie File', '# https://curl.se/docs/http-cookies.html', ''];
  return [...head, ...lines, ''].join(eol);
}
