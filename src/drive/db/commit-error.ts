import { statfs } from 'node:fs/promises';

/** How long the real error of a failed commit is waited for (lmdb-js may settle it only with a later one). */
const COMMIT_ERROR_MS = 1_000;

/**
 * A failed commit with less than this left on the index's file system is a full disk, whatever LMDB said:
 * a commit writes a few pages, and LMDB grows its file as it writes (a full tmpfs answers EIO as often).
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

const NO_SPACE_ERRNO: Record<number, string> = { 28: 'ENOSPC', 122: 'EDQUOT' };

async function nearlyFull(path: string): Promise<boolean> {
  const stats = await statfs(path).catch(() => null);
  return stats !== null && Number(stats.bavail) * Number(stats.bsize) < NEARLY_FULL_BYTES;
}

/**
 * A transaction of the drive index, awaited: when its commit fails, throws what failed. lmdb-js rejects a
 * failed commit with a generic error whose `commitError` promise holds the real one (errno 28 when the disk
 * is full): that promise is handled here, at once (else it is an unhandled rejection, which ends the
 * process), and the error thrown says ENOSPC when the disk is full, so that the API answers 507
 * (http/error-handler.ts). `path`: a folder on the index's file system (DATA_ROOT's: the staging area).
 */
export async function throughCommit<T>(transaction: Promise<T>, path: string): Promise<T> {
  try {
    return await transaction;
  } catch (error) {
    const commitError = (error as { commitError?: Promise<unknown> } | null)?.commitError;
    if (!commitError || typeof commitError.then !== 'function') throw error;
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
    const code =
      (typeof errno === 'number' ? NO_SPACE_ERRNO[errno] : undefined) ??
      ((await nearlyFull(path)) ? 'ENOSPC' : undefined);
    const message = `drive index commit failed: ${cause instanceof Error ? cause.message : String(cause)}`;
    throw Object.assign(new Error(message, { cause }), code ? { code } : {});
  }
}

/**
 * Any other write of the drive index, with the real error of a failed commit handled (see throughCommit):
 * the caller gets lmdb-js's own error, and no rejection is left unhandled.
 */
export function handled<T>(write: Promise<T>): Promise<T> {
  return write.catch((error: unknown) => {
    const commitError = (error as { commitError?: Promise<unknown> } | null)?.commitError;
    if (commitError && typeof commitError.then === 'function') commitError.then(undefined, () => undefined);
    throw error;
  });
}
