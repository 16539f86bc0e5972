import { exporter } from 'ipfs-unixfs-exporter';
import type { StagedFile, StagingArea } from '../fs/staging.js';
import type { PublicResponse } from './blossom/public-fetch.js';
import { QuotaExceededError, quotaLimit } from './quota.js';
import { BlockLog, ContentUnverifiedError, verifiedBlocks, type BlockIndex } from './store/car-verify.js';
import { translate } from './store/embedded-errors.js';
import type { IpfsPath } from './store/ipfs-path.js';
import { NotAFileError } from './store/types.js';

/** How a copy reaches another station's gateway (the route builds it from the BUD-04 mirror settings). */
export interface RemoteGateways {
  /** Origins of this station's own gateway: a link there is read from the local store, as a bare CID is. */
  own: readonly string[];
  /** Fetches a public URL (blossom/public-fetch.ts: addresses judged, size and pace bounded). */
  fetch(url: string, maxBytes: number): Promise<PublicResponse>;
  /** Most blocks one copy's CAR may hold. Default 100 000. */
  maxBlocks?: number;
}

/** The gateway URL of a trustless CAR of `link` (same gateway, same path prefix as the one given). */
export function carUrl(given: URL, link: IpfsPath): string {
  const prefix = given.pathname.slice(0, given.pathname.indexOf('/ipfs/'));
  const path = [link.cid.toString(), ...link.segments.map(encodeURIComponent)].join('/');
  return `${given.origin}${prefix}/ipfs/${path}?format=car&dag-scope=entity&car-dups=n`;
}

/**
 * Fetches `link` as a CAR from another gateway and stages the file it holds, every block verified against
 * its CID first (store/car-verify.ts): the verified blocks go to a staged block log, the file is rebuilt
 * from that log only, and the log is removed whatever happens. A corrupted, forged or incomplete CAR is a
 * ContentUnverifiedError (502) and nothing is staged.
 */
export async function fetchVerified(
  staging: Pick<StagingArea, 'receive' | 'discard'>,
  remote: RemoteGateways,
  given: URL,
  link: IpfsPath,
  room: number,
): Promise<{ staged: StagedFile; cid: string }> {
  // The CAR holds the file and the folders on its path: a little more than the file itself.
  const origin = await remote.fetch(carUrl(given, link), Math.ceil(room * 1.05) + 4 * 1024 * 1024);
  const reader = origin.body[Symbol.asyncIterator]();
  const body = { [Symbol.asyncIterator]: () => reader };
  const index: BlockIndex = new Map();
  const blocks = verifiedBlocks(body, link.cid, index, remote.maxBlocks ?? 100_000);
  const notACar = !/^application\/vnd\.ipld\.car\b/i.test(origin.contentType ?? '');
  const log = await (
    notACar
      ? Promise.reject(
          new ContentUnverifiedError({
            en: `${given.origin} did not answer a CAR (format=car): it is not a trustless gateway.`,
            fr: `${given.origin} n’a pas répondu un CAR (format=car) : ce n’est pas une passerelle sans confiance.`,
          }),
        )
      : staging.receive(blocks, [])
  ).catch(async (error: unknown) => {
    // The origin's body is given back (its connection closed) whatever went wrong.
    await reader.return?.();
    throw error;
  });
  try {
    const store = await BlockLog.open(log.path, index);
    try {
      const entry = await exporter(link.path, store).catch((error: unknown) => {
        throw translate(error, link.path);
      });
      if (entry.type !== 'file' && entry.type !== 'raw') throw new NotAFileError(link.path);
      if (entry.size > BigInt(room)) throw new QuotaExceededError(room);
      const content = (async function* () {
        try {
          yield* entry.content();
        } catch (error) {
          throw translate(error, link.path);
        }
      })();
      const staged = await staging.receive(content, [quotaLimit(room)]);
      return { staged, cid: entry.cid.toString() };
    } finally {
      await store.close();
    }
  } finally {
    await staging.discard(log);
  }
}
