import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { CarBlockIterator } from '@ipld/car/iterator';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { StationError, type Localized } from '../../errors.js';

const DAG_PB = 0x70;
const RAW = 0x55;
/** Multihash codes this side can recompute: identity, sha2-256, sha2-512. */
const HASHES: Record<number, string | null> = { 0x00: null, 0x12: 'sha256', 0x13: 'sha512' };

/** Content fetched from another gateway that does not prove to be what its CID names: nothing of it is kept. */
export class ContentUnverifiedError extends StationError {
  constructor(detail: Localized) {
    super('CONTENT_UNVERIFIED', detail);
  }
}

const short = (cid: CID) => cid.toString().slice(0, 64);

/** Throws unless `bytes` hash to `cid`'s multihash and decode as its codec (dag-pb or raw). */
export function verifyBlock(cid: CID, bytes: Uint8Array): void {
  const code = cid.multihash.code;
  if (!(code in HASHES) || (cid.code !== DAG_PB && cid.code !== RAW))
    throw new ContentUnverifiedError({
      en: `Block ${short(cid)} uses a codec or hash this station cannot verify.`,
      fr: `Le bloc ${short(cid)} utilise un codec ou un hachage que cette station ne sait pas vérifier.`,
    });
  const algorithm = HASHES[code];
  const digest = algorithm ? createHash(algorithm).update(bytes).digest() : Buffer.from(bytes);
  let ok = Buffer.from(cid.multihash.digest).equals(digest);
  if (ok && cid.code === DAG_PB) {
    try {
      dagPb.decode(bytes);
    } catch {
      ok = false;
    }
  }
  if (!ok)
    throw new ContentUnverifiedError({
      en: `Block ${short(cid)} does not match its CID: the gateway sent corrupted or forged content.`,
      fr: `Le bloc ${short(cid)} ne correspond pas à son CID : la passerelle a envoyé un contenu altéré ou falsifié.`,
    });
}

/** Where each verified block sits in the block log (a staged file of their bytes, one after the other). */
export type BlockIndex = Map<string, { offset: number; length: number }>;

/**
 * Reads a CAR stream, verifying each block before it goes on: yields the bytes of the verified blocks (the
 * block log) and fills `index`. Refuses a CAR whose header does not name `root` or whose blocks do not
 * hash to their CIDs; `maxBlocks` bounds the index.
 */
export async function* verifiedBlocks(
  car: AsyncIterable<Uint8Array>,
  root: CID,
  index: BlockIndex,
  maxBlocks: number,
): AsyncGenerator<Uint8Array> {
  let blocks: CarBlockIterator;
  try {
    blocks = await CarBlockIterator.fromIterable(car);
  } catch (error) {
    if (error instanceof StationError) throw error;
    throw new ContentUnverifiedError({
      en: 'The gateway did not send a CAR.',
      fr: 'La passerelle n’a pas envoyé de CAR.',
    });
  }
  const roots = await blocks.getRoots();
  if (!roots.some((r) => r.toV1().equals(root.toV1())))
    throw new ContentUnverifiedError({
      en: `The gateway's CAR is not rooted at ${short(root)}.`,
      fr: `Le CAR de la passerelle n’a pas ${short(root)} pour racine.`,
    });
  let offset = 0;
  for await (const { cid, bytes } of malformedAsUnverified(blocks)) {
    verifyBlock(cid, bytes);
    const key = cid.toV1().toString();
    if (index.has(key)) continue;
    if (index.size >= maxBlocks)
      throw new ContentUnverifiedError({
        en: `The gateway's CAR has more than ${maxBlocks} blocks.`,
        fr: `Le CAR de la passerelle a plus de ${maxBlocks} blocs.`,
      });
    index.set(key, { offset, length: bytes.length });
    offset += bytes.length;
    yield bytes;
  }
}

/** A CAR that cannot be read to its end (cut, garbled) is not verified content either. */
async function* malformedAsUnverified<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    if (error instanceof StationError || (error as Error).name === 'AbortError') throw error;
    throw new ContentUnverifiedError({
      en: `The gateway's CAR is malformed or cut short: ${(error as Error).message}`,
      fr: `Le CAR de la passerelle est mal formé ou tronqué : ${(error as Error).message}`,
    });
  }
}

/** A read-only blockstore over the block log, for the UnixFS exporter: only verified blocks are in it. */
export class BlockLog {
  private constructor(
    private readonly handle: FileHandle,
    private readonly index: BlockIndex,
  ) {}

  static async open(path: string, index: BlockIndex): Promise<BlockLog> {
    return new BlockLog(await open(path, 'r'), index);
  }

  async *get(cid: CID): AsyncGenerator<Uint8Array> {
    if (cid.multihash.code === 0x00) {
      yield cid.multihash.digest;
      return;
    }
    const at = this.index.get(cid.toV1().toString());
    if (!at)
      throw new ContentUnverifiedError({
        en: `The gateway's CAR lacks block ${short(cid)}: it is incomplete.`,
        fr: `Le CAR de la passerelle n’a pas le bloc ${short(cid)} : il est incomplet.`,
      });
    const bytes = Buffer.alloc(at.length);
    await this.handle.read(bytes, 0, at.length, at.offset);
    yield bytes;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
