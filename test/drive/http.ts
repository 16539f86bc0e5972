import type { TestApp } from '../helpers/app.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';

export interface Owner extends TestKey {
  email: string;
  dir: string;
}

export async function register(t: TestApp, email: string): Promise<Owner> {
  const created = await t.deps.users.create({ email });
  return { ...keyFromSecret(created.keys.nostr.secretKey), email, dir: t.deps.users.dirFor(email) };
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body as browsers send it (UTF-8 file names as raw bytes in the header). */
export function multipart(
  parts: Part[],
  boundary = '----stationDriveTest',
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename !== undefined
        ? `form-data; name="${part.name}"; filename="${part.filename}"`
        : `form-data; name="${part.name}"`;
    const headers = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.filename !== undefined) headers.push(`Content-Type: ${part.type ?? 'application/octet-stream'}`);
    chunks.push(Buffer.from(`${headers.join('\r\n')}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads one file as `who` (NIP-98 over the whole body), `npub` first like the station pages. */
export function upload(
  t: TestApp,
  who: TestKey,
  filename: string,
  content: string | Buffer,
  options: { path?: string; npub?: string | null; signer?: TestKey | null; createdAt?: number } = {},
) {
  const path = options.path ?? '/api/upload';
  const parts: Part[] = [];
  if (options.npub !== null) parts.push({ name: 'npub', value: options.npub ?? who.npub });
  parts.push({ name: 'file', value: content, filename });
  const { body, contentType } = multipart(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  const signer = options.signer === undefined ? who : options.signer;
  if (signer)
    headers.authorization = nip98Header(signer, `http://localhost${path}`, 'POST', {
      body,
      createdAt: options.createdAt,
    });
  return t.app.inject({ method: 'POST', url: path, payload: body, headers });
}

/** A JSON POST as `who` (NIP-98 with payload tag). */
export function postJson(t: TestApp, who: TestKey | null, path: string, payload: object) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who) headers.authorization = nip98Header(who, `http://localhost${path}`, 'POST', { body });
  return t.app.inject({ method: 'POST', url: path, payload: body, headers });
}
