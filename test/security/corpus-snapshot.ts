import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isValidHost } from '../../src/cookies/hosts.js';
import { normaliseEmail } from '../../src/identity/email.js';

/** Relative path → `type:size:mode` (directories without size: it varies with their entries). */
export type Snapshot = Map<string, string>;

/** Every entry under `root` (symbolic links not followed), except the subtrees `skip` says to leave out. */
export async function snapshot(
  root: string,
  skip: (rel: string) => boolean = () => false,
): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join('/');
      if (skip(rel)) continue;
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      const type = info.isDirectory() ? 'd' : info.isSymbolicLink() ? 'l' : info.isFile() ? 'f' : 'o';
      out.set(rel, `${type}:${type === 'd' ? '-' : info.size}:${(info.mode & 0o7777).toString(8)}`);
      if (type === 'd') await walk(path);
    }
  };
  await walk(root);
  return out;
}

/** Paths added, removed or changed (type, size or mode) between two snapshots. */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [path, facts] of after)
    if (!before.has(path)) out.push(`added ${path} (${facts})`);
    else if (before.get(path) !== facts) out.push(`changed ${path} (${before.get(path)} → ${facts})`);
  for (const path of before.keys()) if (!after.has(path)) out.push(`removed ${path}`);
  return out;
}

const CATEGORIES = new Set(['Images', 'Music', 'Videos', 'Documents']);

/**
 * What may change inside DATA_ROOT while hostile names are thrown at the station: the content store and the
 * station's own state; in the directories of the members who upload, files directly in the four drive folders (never hidden),
 * the drive's manifest, journal, lock and media records, and cookie files named after a valid host; whole new user
 * directories named by a valid e-mail. Anything else (another user's directory, the member's keys, a drive
 * file outside a category folder, a stray file at the root of DATA_ROOT or of `nostr/`) is reported.
 */
export function dataRootViolations(before: Snapshot, after: Snapshot, memberEmails: string[]): string[] {
  const allowed = (path: string): boolean => {
    if (/^(ipfs-store|station)(\/|$)/.test(path)) return true;
    const member = memberEmails.map((email) => `nostr/${email}/`).find((dir) => path.startsWith(dir));
    if (member) {
      const rest = path.slice(member.length);
      // The media record of an upload (drive/media/record.ts): named by a CID, never by the upload's name.
      if (/^APP\/uDRIVE\/\.media(\/Qm[1-9A-HJ-NP-Za-km-z]{44}\.json)?$/.test(rest)) return true;
      if (
        /^APP\/uDRIVE\/(manifest\.json|\.manifest\.log|\.drive\.lock(\/holder|\.wanted)?|\.journal(\/[^/]+)?)$/.test(
          rest,
        )
      )
        return true;
      const drive = /^APP\/uDRIVE\/([^/]+)\/([^/]+)$/.exec(rest);
      if (drive) return CATEGORIES.has(drive[1]!) && !drive[2]!.startsWith('.');
      const cookie = /^\.(.+)\.cookie$/.exec(rest);
      return rest === '.cookie.txt' || (cookie !== null && isValidHost(cookie[1]!));
    }
    const user = /^nostr\/([^/]+)(\/|$)/.exec(path);
    return user !== null && !before.has(`nostr/${user[1]}`) && normaliseEmail(user[1]) === user[1];
  };
  const found = changes(before, after).filter(
    (change) => !allowed(change.replace(/^\w+ /, '').split(' (')[0]!),
  );
  const staged = [...after.keys()].filter((path) => path.startsWith('.drive-staging/'));
  return [...found, ...staged.map((path) => `left in staging: ${path}`)];
}
