import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { TestApp } from '../helpers/app.js';
import { randomBytes } from 'node:crypto';
import {
  authorizationHeader,
  keyFromSecret,
  nip98Header,
  signEvent,
  type TestKey,
} from '../helpers/nostr.js';
import { multipartBody } from './fixtures.js';

export interface Owner extends TestKey {
  email: string;
  dir: string;
}

export async function register(t: TestApp, email: string): Promise<Owner> {
  const created = await t.deps.users.create({ email });
  return { ...keyFromSecret(created.keys.nostr.secretKey), email, dir: t.deps.users.dirFor(email) };
}

export type AuthMode = 'nip98' | 'none' | { signer: TestKey };

/** POSTs a multipart form like the cookie page does: `npub` field, then the file; NIP-98 over the whole body. */
export function postFile(
  t: TestApp,
  who: TestKey,
  content: string | Buffer,
  options: { path?: string; auth?: AuthMode; npub?: string | null; filename?: string; type?: string } = {},
) {
  const path = options.path ?? '/api/fileupload';
  const parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }> = [];
  if (options.npub !== null) parts.push({ name: 'npub', value: options.npub ?? who.npub });
  parts.push({
    name: 'file',
    value: content,
    filename: options.filename ?? 'cookies.txt',
    type: options.type,
  });
  const { body, contentType } = multipartBody(parts);
  const auth = options.auth ?? 'nip98';
  const headers: Record<string, string> = { 'content-type': contentType };
  if (auth !== 'none') {
    const signer = auth === 'nip98' ? who : auth.signer;
    headers.authorization = nip98Header(signer, `http://localhost${path}`, 'POST', { body });
  }
  return t.app.inject({ method: 'POST', url: path, payload: body, headers });
}

/**
 * A NIP-98 header with a random `nonce` tag, as the pages send: two identical requests in the same second
 * would otherwise sign the same event, and the second would be refused as a replay.
 */
export function freshNip98(who: TestKey, url: string, method: string): string {
  const tags = [
    ['u', url],
    ['method', method],
    ['nonce', randomBytes(8).toString('hex')],
  ];
  return authorizationHeader(signEvent(who, { kind: 27235, tags }));
}

/** An authenticated JSON/text request to the vault. */
export function vault(
  t: TestApp,
  who: TestKey,
  method: 'GET' | 'DELETE',
  path: string,
  accept = 'application/json',
) {
  return t.app.inject({
    method,
    url: path,
    headers: { accept, authorization: freshNip98(who, `http://localhost${path}`, method) },
  });
}

/** The NIP-98 replay cache records every accepted event id: authentication state, not an upload. */
const AUTH_STATE = join('tmp', 'auth');

/**
 * Every file under `root` with its size, mode and mtime: "nothing written anywhere" is a snapshot
 * comparison (the authentication replay cache aside).
 */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (relative(root, path).startsWith(AUTH_STATE)) continue;
    const info = await stat(path);
    files[relative(root, path)] = `${info.size}:${(info.mode & 0o777).toString(8)}:${info.mtimeMs}`;
  }
  return files;
}

export async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

export const read = (path: string) => readFile(path);
