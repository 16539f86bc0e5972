import { lstat, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import type { StagedFile, StagingArea } from '../fs/staging.js';
import { within } from '../fs/paths.js';
import { InvalidInput, NotFound } from '../errors.js';
import type { Language } from '../i18n/localized.js';
import type { UserRecord } from '../identity/user-files.js';
import type { UserLookup } from '../identity/user-store.js';
import {
  cookieFileName,
  domainOfFileName,
  NO_DOMAIN_FILE,
  openRegularNoFollow,
  scanCookieBytes,
  scanCookieFile,
  scanCookieStream,
} from './files.js';
import { domainAndParents, isValidHost } from './hosts.js';
import { INVALID_DOMAIN, multiDomain, noCookieFile, NOT_A_COOKIE_FILE, storedMessage } from './messages.js';
import type { CookieScan } from './netscape.js';
import type { CookieEntry, CookieUploadResponse } from './schemas.js';

export interface OpenedCookie {
  domain: string | null;
  handle: FileHandle;
  size: number;
}

type Owner = Pick<UserRecord, 'email'>;

export interface CookieVaultDeps {
  users: Pick<UserLookup, 'dirFor'>;
  clock: Clock;
  /** Says that a file was stored or deleted: never its contents. */
  logger?: Pick<Logger, 'info'>;
}

/** `youtube.com` (any case, one leading dot tolerated) or the literal `.cookie.txt`; anything else is 400. */
export function parseDomainParam(param: string): string | null {
  if (param === NO_DOMAIN_FILE) return null;
  const domain = (param.startsWith('.') ? param.slice(1) : param).toLowerCase();
  if (!isValidHost(domain)) throw new InvalidInput('INVALID_DOMAIN', INVALID_DOMAIN);
  return domain;
}

/**
 * The owner's cookie files at the root of the user directory. Files arrive already on disk (a staged upload,
 * mode 600 from creation, flushed) and are renamed over the old one; from another file system, a fresh
 * mode-600 copy is (`moveFile`): never wider permissions, never a half file.
 */
export class CookieVault {
  /** Earliest expiry per file version, so listing does not re-read unchanged files. */
  private readonly expiries = new LRUCache<string, { value: number | null }>({ max: 2_000 });

  constructor(private readonly deps: CookieVaultDeps) {}

  /**
   * Takes a staged cookie file, moved into the user directory by the staging area it came from (mode 600:
   * see `StagingArea.moveTo`). 400 when it is not one. A file whose whole content staging kept in memory
   * (`head`: the usual cookie file) is not read again. `message` is in `lang`, the caller's.
   */
  async accept(
    owner: Owner,
    staged: Pick<StagedFile, 'path' | 'size' | 'head' | 'mode'>,
    from: Pick<StagingArea, 'moveTo'>,
    lang: Language,
  ): Promise<CookieUploadResponse> {
    const scan =
      staged.head.length === staged.size ? scanCookieBytes(staged.head) : await scanCookieFile(staged.path);
    const domain = this.singleDomain(scan);
    const userDir = this.deps.users.dirFor(owner.email);
    const fileName = cookieFileName(domain);
    const target = within(userDir, fileName);
    await from.moveTo(staged, target);
    this.deps.logger?.info({ user: owner.email, domain, cookies: scan.cookies }, 'cookie file stored');
    return {
      success: true,
      message: storedMessage(domain, scan.cookies, NO_DOMAIN_FILE)[lang],
      file_path: `${owner.email}/${fileName}`,
      file_type: 'netscape_cookies',
      target_directory: userDir,
      new_cid: null,
      timestamp: localTimestamp(this.deps.clock.now()),
      auth_verified: true,
      description: `Domain: ${domain ?? 'unknown'}`,
    };
  }

  async list(owner: Owner): Promise<CookieEntry[]> {
    const userDir = this.deps.users.dirFor(owner.email);
    const entries = await readdir(userDir, { withFileTypes: true }).catch(() => []);
    const found: CookieEntry[] = [];
    // Dirent.isFile() is false for a symbolic link: links are never listed, read or followed.
    for (const entry of entries) {
      const domain = domainOfFileName(entry.name);
      if (!entry.isFile() || domain === undefined) continue;
      const described = await this.describe(within(userDir, entry.name), entry.name, domain);
      if (described) found.push(described);
    }
    return found.sort((a, b) => (a.domain ?? '').localeCompare(b.domain ?? ''));
  }

  /** The file for `domain`, else the nearest parent domain's (`notebooklm.google.com` → `google.com`). */
  async open(owner: Owner, domain: string | null): Promise<OpenedCookie> {
    const userDir = this.deps.users.dirFor(owner.email);
    for (const candidate of domain === null ? [null] : domainAndParents(domain)) {
      const handle = await openRegularNoFollow(within(userDir, cookieFileName(candidate)));
      if (handle) return { domain: candidate, handle, size: (await handle.stat()).size };
    }
    throw new NotFound('COOKIE_NOT_FOUND', noCookieFile(domain));
  }

  /** Deletes exactly that domain's file (never a parent's). */
  async remove(owner: Owner, domain: string | null): Promise<void> {
    const path = within(this.deps.users.dirFor(owner.email), cookieFileName(domain));
    const notFound = () => new NotFound('COOKIE_NOT_FOUND', noCookieFile(domain));
    const info = await lstat(path).catch(() => null);
    if (!info?.isFile()) throw notFound();
    // Two simultaneous deletions both see the file; the one that loses the race finds nothing to delete.
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? notFound() : error;
    });
    this.deps.logger?.info({ user: owner.email, domain }, 'cookie file deleted');
  }

  private singleDomain(scan: CookieScan): string | null {
    if (scan.cookies === 0 && !scan.header) {
      throw new InvalidInput('NOT_A_COOKIE_FILE', NOT_A_COOKIE_FILE);
    }
    if (scan.domains.length > 1) {
      const listed = scan.domains.join(', ') + (scan.moreDomains ? ', …' : '');
      throw new InvalidInput('MULTI_DOMAIN_COOKIES', multiDomain(listed));
    }
    return scan.domains[0] ?? null;
  }

  private async describe(path: string, file: string, domain: string | null): Promise<CookieEntry | null> {
    const handle = await openRegularNoFollow(path);
    if (!handle) return null;
    try {
      const info = await handle.stat();
      const key = `${info.dev}:${info.ino}:${info.mtimeMs}:${info.size}`;
      let cached = this.expiries.get(key);
      if (!cached) {
        // A file the station's own tools wrote may not parse; it is still listed, without an expiry.
        const scan = await scanCookieStream(handle.createReadStream({ autoClose: false })).catch(() => null);
        cached = { value: scan?.earliestExpiry ?? null };
        this.expiries.set(key, cached);
      }
      return {
        domain,
        file,
        uploaded_at: localTimestamp(info.mtimeMs),
        size: info.size,
        expires_at: cached.value === null ? null : localTimestamp(cached.value * 1000),
      };
    } finally {
      await handle.close();
    }
  }
}
