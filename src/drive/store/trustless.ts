import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CarWriter } from '@ipld/car/writer';
import { exporter } from 'ipfs-unixfs-exporter';
import type { CID } from 'multiformats/cid';
import { translate } from './embedded-errors.js';
import type { IpfsPath } from './ipfs-path.js';
import {
  DEFAULT_CAR_LIMITS,
  dagTooLarge,
  resolveEntityBytes,
  walkBelow,
  type Block,
  type CarLimits,
} from './car-walk.js';
import { CAR_TYPE, RAW_TYPE, type TrustlessAsk } from './trustless-request.js';
import { InvalidContentPathError, type ContentStore } from './types.js';

export type TrustlessStore = Pick<ContentStore, 'getBlock' | 'stat'>;

const IMMUTABLE = 'public, max-age=29030400, immutable';
const IDENTITY = 0x00;

interface Target {
  req: IncomingMessage;
  res: ServerResponse;
  store: TrustlessStore;
  path: IpfsPath;
  signal: AbortSignal;
  limits?: CarLimits | undefined;
}

/** A block's bytes: identity CIDs carry them in their digest, anything else comes from the store. */
async function blockBytes(store: TrustlessStore, cid: CID, signal: AbortSignal): Promise<Uint8Array> {
  if (cid.multihash.code === IDENTITY) return cid.multihash.digest;
  return store.getBlock(cid.toString(), { signal });
}

function commonHeaders(res: ServerResponse, etag: string, type: string, filename: string): void {
  res.setHeader('content-type', type);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('cache-control', IMMUTABLE);
  res.setHeader('etag', etag);
  res.setHeader('vary', 'Accept');
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('content-disposition', `attachment; filename="${filename}"`);
}

/** Answers a Trustless Gateway request (`format=raw` or `format=car`) for one immutable path. */
export async function serveTrustless(target: Target, ask: TrustlessAsk): Promise<void> {
  if (ask.format === 'raw') return serveRaw(target);
  return serveCar(target, ask);
}

/** `application/vnd.ipld.raw`: exactly the bytes of the CID's block; only `/ipfs/<cid>`, never a path. */
async function serveRaw({ req, res, store, path, signal }: Target): Promise<void> {
  if (path.segments.length > 0)
    throw new InvalidContentPathError({
      en: 'A raw block is asked by its CID alone: /ipfs/<cid>?format=raw, without a path.',
      fr: 'Un bloc brut se demande par son seul CID : /ipfs/<cid>?format=raw, sans chemin.',
    });
  const bytes = await blockBytes(store, path.cid, signal).catch((error: unknown) => {
    throw translate(error, path.path);
  });
  const etag = `"${path.cid.toString()}.raw"`;
  commonHeaders(res, etag, RAW_TYPE, `${path.cid.toString()}.bin`);
  res.setHeader('x-ipfs-path', `/ipfs/${path.cid.toString()}`);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  res.writeHead(200, { 'content-length': String(bytes.length) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * The blocks the exporter reads to resolve the path (the root, each folder and hamt shard on the way, the
 * terminal node), in the order it reads them: what a client needs to verify each step of the path.
 */
async function pathBlocks(store: TrustlessStore, path: IpfsPath, signal: AbortSignal) {
  const read: Block[] = [];
  const recorder = {
    async *get(cid: CID) {
      const bytes = await store.getBlock(cid.toString(), { signal });
      if (!read.some((b) => b.cid.equals(cid))) read.push({ cid, bytes });
      yield bytes;
    },
  };
  try {
    const entry = await exporter(path.path, recorder, { signal });
    return { read, entry };
  } catch (error) {
    throw translate(error, path.path);
  }
}

async function serveCar(target: Target, ask: Extract<TrustlessAsk, { format: 'car' }>): Promise<void> {
  const { req, res, store, path, signal } = target;
  const limits = target.limits ?? DEFAULT_CAR_LIMITS;
  const stat = await store.stat(path.path, { signal });
  if (ask.scope !== 'block' && stat.dagSize > limits.maxBytes) throw dagTooLarge(limits);
  const dups = ask.dups ? 'y' : 'n';
  const bytesTag = ask.entityBytes ? `.${ask.entityBytes.from}-${ask.entityBytes.to ?? '*'}` : '';
  const etag = `"${stat.cid}.car.${ask.scope}${bytesTag}.dups-${dups}"`;
  commonHeaders(res, etag, `${CAR_TYPE}; version=1; order=dfs; dups=${dups}`, `${path.cid.toString()}.car`);
  res.setHeader('x-ipfs-path', `/ipfs/${path.path.split('/').map(encodeURIComponent).join('/')}`);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200).end();
    return;
  }
  const { read, entry } = await pathBlocks(store, path, signal);
  const sent = new Set(read.map((b) => b.cid.toString()));
  if (read.length > limits.maxBlocks) throw dagTooLarge(limits);
  res.setHeader('x-ipfs-roots', read.map((b) => b.cid.toString()).join(','));
  const terminal = read.find((b) => b.cid.equals(entry.cid)) ?? { cid: entry.cid, bytes: new Uint8Array() };
  let range = null;
  let scope = ask.scope;
  if (ask.entityBytes && stat.type === 'file') {
    range = resolveEntityBytes(ask.entityBytes, stat.size);
    if (!range) scope = 'block';
  }
  const below = walkBelow(terminal, {
    read: (cid) => blockBytes(store, cid, signal),
    scope,
    range,
    dups: ask.dups,
    sent,
    limits,
    signal,
  });

  const { writer, out } = CarWriter.create([path.cid]);
  res.writeHead(200);
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(signal.reason as Error);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  aborted.catch(() => undefined);
  const produce = async () => {
    try {
      for (const block of read) await Promise.race([writer.put(block), aborted]);
      for await (const block of below) await Promise.race([writer.put(block), aborted]);
      await writer.close();
    } catch (error) {
      // Never end a cut walk as if it were whole: the client must see the CAR is incomplete.
      res.destroy(error as Error);
      void writer.close();
      throw error;
    }
  };
  await Promise.all([pipeline(Readable.from(out), res), produce()]);
}
