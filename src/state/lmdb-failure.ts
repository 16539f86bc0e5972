import { statfs } from 'node:fs/promises';

/** How long the real error of a failed commit is waited for (lmdb-js may settle it only with a later one). */
const COMMIT_ERROR_MS = 1_000;

/**
 * A failed commit with less than this left on the database's file system is a full disk, whatever LMDB said:
 * a commit writes a few pages, and LMDB grows its file as it writes (a full tmpfs answers EIO as often).
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * The errno of a failed commit (lmdb-js gives it as a number) → the file system's code, which the HTTP layer
 * answers (507 for a full disk, 503 STORAGE_ERROR for the others: src/http/error-handler.ts).
 * -30792 is LMDB's MDB_MAP_FULL: the database reached its size limit, a full disk as far as a writer is concerned.
 */
const ERRNO_CODES: Record<number, string> = {
  5: 'EIO',
  28: 'ENOSPC',
  30: 'EROFS',
  122: 'EDQUOT',
  [-30792]: 'ENOSPC',
};
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

async function nearlyFull(path: string | null): Promise<boolean> {
  if (path === null) return false;
  const stats = await statfs(path).catch(() => null);
  return stats !== null && Number(stats.bavail) * Number(stats.bsize) < NEARLY_FULL_BYTES;
}

/** The promise lmdb-js attaches to the error of a failed commit, holding the real error; null for any other. */
function commitErrorOf(error: unknown): Promise<unknown> | null {
  const commitError = (error as { commitError?: Promise<unknown> } | null)?.commitError;
  return commitError && typeof commitError.then === 'function' ? commitError : null;
}

/**
 * What a failed LMDB write should throw. lmdb-js rejects a failed commit with a generic error whose
 * `commitError` promise holds the real one (errno 28 when the disk is full): that promise is handled here at
 * once (else it is an unhandled rejection, which ends the process) and waited for a moment, and the error
 * returned carries the file system's code (`ENOSPC`, `EIO`, …), so that the API answers 507 or 503. Any
 * other error (one thrown by a transaction's own callback) is returned as it is. `path`: a folder on the
 * database's file system, whose free space tells a full disk when the errno does not (null: the errno alone).
 */
export async function commitFailure(error: unknown, path: string | null, what: string): Promise<unknown> {
  const commitError = commitErrorOf(error);
  if (!commitError) return error;
  let timer: NodeJS.Timeout | undefined;
  const cause = await Promise.race([
    commitError.then(
      () => error,
      (inner: unknown) => inner,
    ),
    new Promise<unknown>((resolve) => (timer = setTimeout(resolve, COMMIT_ERROR_MS, error))),
  ]);
  clearTimeout(timer);
  const errno = (cause as { code?: unknown } | null)?.code;
  const named =
    typeof errno === 'number' ? ERRNO_CODES[errno] : typeof errno === 'string' ? errno : undefined;
  // A commit that failed without saying why still failed on the storage: EIO, unless the disk is full.
  const code =
    named && FULL_CODES.has(named) ? named : (await nearlyFull(path)) ? 'ENOSPC' : (named ?? 'EIO');
  const message = `${what} commit failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  return Object.assign(new Error(message, { cause }), { code });
}

/** An LMDB write, awaited by its caller: a failed commit rejects with `commitFailure`'s error, and only that. */
export function settled<T>(write: Promise<T>, path: string, what: string): Promise<T> {
  return write.catch(async (error: unknown) => {
    throw await commitFailure(error, path, what);
  });
}
