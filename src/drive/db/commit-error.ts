import { commitFailure, settled } from '../../state/lmdb-failure.js';

/**
 * A transaction of the drive index, awaited: when its commit fails, throws what failed, with the file
 * system's code (ENOSPC when the disk is full, so that the API answers 507: src/state/lmdb-failure.ts). Also
 * keeps lmdb-js's inner `commitError` promise from being rejected unhandled, which would end the process.
 * `path`: a folder on the index's file system (DATA_ROOT's: the staging area).
 */
export function throughCommit<T>(transaction: Promise<T>, path: string): Promise<T> {
  return settled(transaction, path, 'drive index');
}

/**
 * Any other write of the drive index, with the real error of a failed commit handled (see throughCommit):
 * the caller gets an error carrying the file system's code (told by the errno alone), and no rejection is
 * left unhandled.
 */
export function handled<T>(write: Promise<T>): Promise<T> {
  return write.catch(async (error: unknown) => {
    throw await commitFailure(error, null, 'drive index');
  });
}
