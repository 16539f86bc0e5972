import type { TestApp } from './app.js';
import { keyFromSecret, nip98Header, type TestKey } from './nostr.js';

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body as browsers send it (UTF-8 file names as raw bytes), parts in the given order. */
export function multipart(
  parts: FormPart[],
  boundary = '----stationTestBoundary',
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

/**
 * POSTs a multipart form. `auth`: a key signs a NIP-98 header over the whole body; a string is sent as the
 * `Authorization` header as it is; null sends none.
 */
export function postForm(
  t: TestApp,
  path: string,
  parts: FormPart[],
  auth: TestKey | string | null,
  createdAt?: number,
  remoteAddress = '127.0.0.1',
) {
  const { body, contentType } = multipart(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (typeof auth === 'string') headers.authorization = auth;
  else if (auth)
    headers.authorization = nip98Header(auth, `http://localhost${path}`, 'POST', { body, createdAt });
  return t.app.inject({ method: 'POST', url: path, payload: body, headers, remoteAddress });
}

/**
 * POSTs one file the way the station pages do: the `npub` field first (unless null), then `file`, signed by
 * `signer` with NIP-98 over the whole body (no header when the signer is null).
 */
export function postUpload(
  t: TestApp,
  path: string,
  upload: {
    npub: string | null;
    file: Omit<FormPart, 'name'>;
    signer: TestKey | null;
    createdAt?: number;
  },
) {
  const parts: FormPart[] = [];
  if (upload.npub !== null) parts.push({ name: 'npub', value: upload.npub });
  parts.push({ name: 'file', ...upload.file });
  return postForm(t, path, parts, upload.signer, upload.createdAt);
}

/** A registered user as the upload tests need it: keys, e-mail and directory. */
export interface Owner extends TestKey {
  email: string;
  dir: string;
}

export async function register(t: TestApp, email: string): Promise<Owner> {
  const created = await t.deps.users.create({ email });
  return { ...keyFromSecret(created.keys.nostr.secretKey), email, dir: t.deps.users.dirFor(email) };
}
