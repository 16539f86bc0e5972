import type { Dirent } from 'node:fs';
import { within } from '../../fs/paths.js';
import { normaliseEmail } from '../../identity/email.js';
import { cookieFileDomain } from './layout.js';
import type { ScanFs } from './scripts.js';

export interface CookieFile {
  email: string;
  domain: string;
  userDir: string;
  /** Absolute path of `.<domain>.cookie`. */
  path: string;
}

export interface CookieFileFilter {
  email?: string;
  domain?: string;
}

/** Users listed at once; bounds open directory handles while keeping a 10,000-user scan to seconds. */
const DIRECTORY_BATCH = 64;

/**
 * Every `.<domain>.cookie` of every user directory under `usersRoot` (`DATA_ROOT/nostr`): one listing of
 * the root and one of each user directory, nothing else. Symbolic links are not followed (intake never
 * writes one), and names that are not valid e-mails or domains are ignored.
 */
export async function* listCookieFiles(
  usersRoot: string,
  fs: ScanFs,
  only: CookieFileFilter = {},
): AsyncGenerator<CookieFile> {
  const emails = only.email ? [only.email] : await userDirectories(usersRoot, fs);
  for (let i = 0; i < emails.length; i += DIRECTORY_BATCH) {
    const batch = emails.slice(i, i + DIRECTORY_BATCH);
    const listings = await Promise.all(batch.map((email) => cookiesOf(usersRoot, email, fs)));
    for (const files of listings) {
      for (const file of files) if (!only.domain || file.domain === only.domain) yield file;
    }
  }
}

async function userDirectories(usersRoot: string, fs: ScanFs): Promise<string[]> {
  const entries: Dirent[] = await fs.readdir(usersRoot, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && normaliseEmail(e.name) === e.name).map((e) => e.name);
}

async function cookiesOf(usersRoot: string, email: string, fs: ScanFs): Promise<CookieFile[]> {
  const userDir = within(usersRoot, email);
  // A user directory removed mid-scan is simply skipped.
  const entries: Dirent[] = await fs.readdir(userDir, { withFileTypes: true }).catch(() => []);
  const files: CookieFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const domain = cookieFileDomain(entry.name);
    if (domain) files.push({ email, domain, userDir, path: within(userDir, entry.name) });
  }
  return files;
}
