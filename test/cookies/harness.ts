import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { TestApp } from '../helpers/app.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';
import { postUpload } from '../helpers/multipart.js';

export type AuthMode = 'nip98' | 'none' | { signer: TestKey };

/** POSTs a multipart form like the cookie page does: `npub` field, then the file; NIP-98 over the whole body. */
export function postFile(
  t: TestApp,
  who: TestKey,
  content: string | Buffer,
  options: { path?: string; auth?: AuthMode; npub?: string | null; filename?: string; type?: string } = {},
) {
  const auth = options.auth ?? 'nip98';
  return postUpload(t, options.path ?? '/api/fileupload', {
    npub: options.npub === undefined ? who.npub : options.npub,
    file: { value: content, filename: options.filename ?? 'cookies.txt', type: options.type ?? 'text/plain' },
    signer: auth === 'none' ? null : auth === 'nip98' ? who : auth.signer,
  });
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
    headers: { accept, authorization: nip98Header(who, `http://localhost${path}`, method) },
  });
}

/** The NIP-98 replay cache records every accepted event id: authentication state, not an upload. */
/** The station database (auth replay records, challenges, logins): written by every authenticated request. */
const AUTH_STATE = join('game', 'station', 'state');

/**
 * Every file under `root` with its size, mode and mtime: "nothing written anywhere" is a snapshot
 * comparison (the station database of authentication records aside).
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
