import { StationError } from '../../errors.js';
import { ContentNotFoundError, InvalidContentPathError, invalidIpfsPath, storeError } from './types.js';

/** Errors of the UnixFS exporter and the blockstore, by name, mapped to the store's typed errors. */
export function translate(error: unknown, path: string): Error {
  if (error instanceof StationError) return error;
  const name = (error as Error | undefined)?.name;
  if (name === 'NotFoundError') return new ContentNotFoundError(path);
  if (name === 'BadPathError') return invalidIpfsPath(path);
  if (name === 'NoResolverError' || name === 'NotUnixFSError')
    return new InvalidContentPathError({
      en: `/ipfs/${path} is not UnixFS content.`,
      fr: `/ipfs/${path} n’est pas un contenu UnixFS.`,
    });
  if (name === 'AbortError') return error as Error;
  const message = (error as Error).message;
  return storeError('failed', {
    en: `The embedded content store failed: ${message}`,
    fr: `Le stockage de contenu intégré a échoué : ${message}`,
  });
}
