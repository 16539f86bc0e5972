import { StationError } from '../../errors.js';
import { ContentNotFoundError, InvalidContentPathError, storeError } from './types.js';

/** Errors of the UnixFS exporter and the blockstore, by name, mapped to the store's typed errors. */
export function translate(error: unknown, path: string): Error {
  if (error instanceof StationError) return error;
  const name = (error as Error | undefined)?.name;
  if (name === 'NotFoundError') return new ContentNotFoundError(path);
  if (name === 'BadPathError') return new InvalidContentPathError(`"${path}" is not a valid IPFS path.`);
  if (name === 'NoResolverError' || name === 'NotUnixFSError')
    return new InvalidContentPathError(`/ipfs/${path} is not UnixFS content.`);
  if (name === 'AbortError') return error as Error;
  return storeError('failed', `The embedded content store failed: ${(error as Error).message}`);
}
