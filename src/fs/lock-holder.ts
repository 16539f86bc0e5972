import fs from 'node:fs';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isRunning, processIdentity } from '../process/identity.js';

/**
 * Who holds a lock, and who waits for it (fs/file-lock.ts).
 *
 * Who holds a lock directory (fs/file-lock.ts), written inside it: `<boot id>:<pid>`. A lock kept by a lease
 * is held most of the time a station is busy, so a station killed outright (SIGKILL, OOM) nearly always
 * leaves one behind; with its holder named, the process that starts next sees the holder is gone and takes
 * the lock at once, instead of waiting for it to go stale.
 */
const HOLDER_FILE = 'holder';

const identity = processIdentity;
const bootId = processIdentity.slice(0, processIdentity.lastIndexOf(':'));

type Callback = (error: NodeJS.ErrnoException | null) => void;

/**
 * Node's fs as proper-lockfile uses it, with a lock directory emptied of its holder's name before it is
 * removed (released, or taken over once stale), and optionally the lock's missing folder made first.
 */
export function lockFs(options: { makeParent: boolean; namesHolder: boolean }) {
  return {
    ...fs,
    mkdir(path: string, callback: Callback) {
      // Named inside the mkdir, before proper-lockfile reads the directory's mtime: a file made in it later
      // would change that mtime, which proper-lockfile takes for the lock being taken over.
      const named: Callback = (error) =>
        error || !options.namesHolder
          ? callback(error)
          : fs.writeFile(join(path, HOLDER_FILE), identity, () => callback(null));
      fs.mkdir(path, (error) => {
        if (error?.code !== 'ENOENT' || !options.makeParent) return named(error);
        fs.mkdir(dirname(path), { recursive: true }, (parentError) =>
          parentError ? callback(parentError) : fs.mkdir(path, named),
        );
      });
    },
    rmdir(path: string, callback: Callback) {
      if (!options.namesHolder) return fs.rmdir(path, callback);
      fs.unlink(join(path, HOLDER_FILE), () => fs.rmdir(path, callback));
    },
  };
}

/**
 * Marks a held lock stale when its holder is named and is a process of this boot that no longer runs, so
 * that proper-lockfile's next try takes it over as it does a stale one. A lock without a name (being taken,
 * or taken by an earlier version), another boot's or machine's, or a live process's is left alone.
 */
export async function staleIfHolderGone(lockPath: string): Promise<boolean> {
  const named = await readFile(join(lockPath, HOLDER_FILE), 'utf8').catch(() => '');
  const separator = named.lastIndexOf(':');
  const pid = Number(named.slice(separator + 1));
  if (separator < 0 || named.slice(0, separator) !== bootId || !Number.isSafeInteger(pid) || pid <= 0)
    return false;
  if (pid === process.pid || isRunning(pid)) return false;
  const epoch = new Date(0);
  return utimes(lockPath, epoch, epoch).then(
    () => true,
    () => false,
  );
}

/** A waiter's mark beside the lock (`<lock>.wanted`, its mtime): see LockLease.maxMs. */
const wantedPath = (lockPath: string) => `${lockPath}.wanted`;

/** Marks that this process is trying for the lock now. */
export async function markWanted(lockPath: string): Promise<void> {
  const now = new Date();
  await utimes(wantedPath(lockPath), now, now)
    .catch(() => writeFile(wantedPath(lockPath), '', { flag: 'a' }))
    .catch(() => undefined);
}

/** Whether another process tried for the lock in the last `ms`. */
export async function wantedWithin(lockPath: string, ms: number): Promise<boolean> {
  const info = await stat(wantedPath(lockPath)).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs < ms;
}
