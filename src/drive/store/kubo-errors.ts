import { StationError } from '../../errors.js';
import {
  ContentNotFoundError,
  invalidIpfsPath,
  NotADirectoryError,
  NotAFileError,
  storeError,
} from './types.js';

/** Kubo answers errors with HTTP 500 and `{Message, Code, Type: "error"}`; these are its messages we map. */
const MESSAGE_RULES: Array<[RegExp, (path: string) => Error]> = [
  [/no link named|not found|no such file|could not resolve/i, (path) => new ContentNotFoundError(path)],
  [/invalid path|invalid cid|illegal base|selected encoding not supported|multihash/i, invalidIpfsPath],
  [/is a directory|not a file|unsupported unixfs type/i, (path) => new NotAFileError(path)],
  [/not a directory/i, (path) => new NotADirectoryError(path)],
];

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code;
}

/**
 * Translates what kubo-rpc-client throws into the store's typed errors. `timedOut` tells whether our own
 * deadline fired (a Kubo that keeps searching the network for a CID ends as CONTENT_STORE_TIMEOUT, not a
 * hang).
 */
export function translateKuboError(error: unknown, path: string, api: string, timedOut: boolean): Error {
  if (error instanceof StationError) return error;
  const err = error as Error;
  if (timedOut || err.name === 'TimeoutError')
    return storeError('timeout', {
      en: `The Kubo node at ${api} did not answer in time for /ipfs/${path}.`,
      fr: `Le nœud Kubo de ${api} n’a pas répondu à temps pour /ipfs/${path}.`,
    });
  if (err.name === 'AbortError') return err;
  if (err.name === 'HTTPError') {
    for (const [pattern, build] of MESSAGE_RULES) if (pattern.test(err.message)) return build(path);
    return storeError('failed', {
      en: `The Kubo node at ${api} refused the request: ${err.message}`,
      fr: `Le nœud Kubo de ${api} a refusé la requête : ${err.message}`,
    });
  }
  const code = causeCode(err);
  if (err instanceof TypeError || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND')
    return storeError('down', {
      en: `The Kubo node at ${api} is not reachable.`,
      fr: `Le nœud Kubo de ${api} est injoignable.`,
    });
  return storeError('failed', {
    en: `The Kubo node at ${api} failed: ${err.message}`,
    fr: `Le nœud Kubo de ${api} a échoué : ${err.message}`,
  });
}

export function isNotPinned(error: unknown): boolean {
  return /not pinned/i.test((error as Error | undefined)?.message ?? '');
}
