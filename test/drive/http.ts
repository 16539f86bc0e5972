import type { TestApp } from '../helpers/app.js';
import { postUpload } from '../helpers/multipart.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';

/** Uploads one file as `who` (NIP-98 over the whole body), `npub` first like the station pages. */
export function upload(
  t: TestApp,
  who: TestKey,
  filename: string,
  content: string | Buffer,
  options: { path?: string; npub?: string | null; signer?: TestKey | null; createdAt?: number } = {},
) {
  return postUpload(t, options.path ?? '/api/upload', {
    npub: options.npub === undefined ? who.npub : options.npub,
    file: { value: content, filename },
    signer: options.signer === undefined ? who : options.signer,
    createdAt: options.createdAt,
  });
}

/** A JSON POST as `who` (NIP-98 with payload tag). */
export function postJson(t: TestApp, who: TestKey | null, path: string, payload: object) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who) headers.authorization = nip98Header(who, `http://localhost${path}`, 'POST', { body });
  return t.app.inject({ method: 'POST', url: path, payload: body, headers });
}
