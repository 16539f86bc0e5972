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

/** A multipart/form-data body as browsers send it, with the parts in the given order. */
export function multipartBody(
  parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>,
  boundary = '----stationCookieTest',
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const headers = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.filename) headers.push(`Content-Type: ${part.type ?? 'text/plain'}`);
    chunks.push(Buffer.from(`${headers.join('\r\n')}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
