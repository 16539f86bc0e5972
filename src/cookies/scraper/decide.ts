import type { Stats } from 'node:fs';
import type { CookieFile } from './cookie-files.js';
import { cookiesAllExpired } from './expiry.js';
import { markerPath } from './layout.js';
import type { ScanFs, ScriptFinder } from './scripts.js';

export type Outcome = 'ran' | 'skipped' | 'notified' | 'failed';

export interface ScanItem {
  email: string;
  domain: string;
  outcome: Outcome;
  /** Why, in a stable lower_snake word: `already_ran_today`, `no_script`, `cookie_expired`, `timeout`… */
  reason: string;
  exitCode?: number | null;
  /** A mail went out with this item (missing scraper, or asking for a fresh cookie). */
  mailed?: boolean;
}

export type Decision =
  | { kind: 'done'; item: ScanItem }
  | { kind: 'missing_script'; file: CookieFile }
  | { kind: 'expired'; file: CookieFile; version: string }
  | { kind: 'run'; file: CookieFile; script: string; version: string };

export interface DecideContext {
  fs: ScanFs;
  finder: ScriptFinder;
  tmpDir: string;
  date: string;
  nowSeconds: number;
}

/** Identifies one upload of a cookie file: intake writes a new file (new inode) and renames it over the old. */
export function cookieVersion(stats: Stats): string {
  return `${stats.ino}-${Math.trunc(stats.mtimeMs)}-${stats.size}`;
}

export function item(
  file: CookieFile,
  outcome: Outcome,
  reason: string,
  extra: Partial<ScanItem> = {},
): ScanItem {
  return { email: file.email, domain: file.domain, outcome, reason, ...extra };
}

/**
 * What to do with one cookie file, using only cheap checks in this order: script lookup (cached per
 * domain), today's marker, then the cookie's expiry. The marker is created later, when the run starts.
 */
export async function decide(file: CookieFile, context: DecideContext): Promise<Decision> {
  const script = await context.finder.find(file.domain);
  if (script.kind === 'missing') return { kind: 'missing_script', file };
  if (script.kind === 'not_executable') {
    return { kind: 'done', item: item(file, 'failed', 'script_not_executable') };
  }
  const marker = markerPath(context.tmpDir, file.domain, file.email, context.date);
  if (
    await context.fs.stat(marker).then(
      () => true,
      () => false,
    )
  ) {
    return { kind: 'done', item: item(file, 'skipped', 'already_ran_today') };
  }
  const stats = await context.fs.stat(file.path).catch(() => null);
  if (!stats?.isFile()) return { kind: 'done', item: item(file, 'skipped', 'cookie_removed') };
  const version = cookieVersion(stats);
  if (await cookiesAllExpired(file.path, context.nowSeconds)) return { kind: 'expired', file, version };
  return { kind: 'run', file, script: script.path, version };
}
