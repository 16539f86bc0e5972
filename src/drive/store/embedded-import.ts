import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { importFile } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import type { BlockBatch } from '../db/block-batch.js';
import { translate } from './embedded-errors.js';
import { buildLeaf, leanLeaves } from './lean-leaves.js';
import type { HeldFiles } from './held-files.js';
import { leafCid, leafFraming, placedLeaves } from './file-leaves.js';
import type { AddFileOptions } from './types.js';

/**
 * Kubo's `ipfs add` defaults: CIDv0, 256 KiB fixed chunks, balanced DAG of 174 links, dag-pb leaves. A few
 * blocks written at a time and lean leaves keep an import's memory to a few MB whatever the file size.
 */
const KUBO_DEFAULTS = {
  profile: 'unixfs-v0-2015',
  reduceSingleLeafToSelf: true,
  blockWriteConcurrency: 8,
  bufferImporter: leanLeaves,
} as const;

/** Kubo's chunk size (`size-262144`): a file up to this size is a single leaf. */
const CHUNK_BYTES = 256 * 1024;

/** Reads of a file being imported: four chunks at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** What an import made: the root, its DAG size and the file's size. */
export interface Imported {
  cid: CID;
  dagSize: number;
  size: number;
}

/** The importer's blockstore: every block into the batch (nothing reaches the store before its change). */
const into = (batch: BlockBatch) => ({
  put: async (cid: CID, bytes: Uint8Array) => {
    batch.put(cid.toString(), bytes);
    return cid;
  },
});

/** Imports a byte stream into `batch`. */
export async function importStream(batch: BlockBatch, content: AsyncIterable<Uint8Array>): Promise<Imported> {
  return imported(await importFile({ content }, into(batch), KUBO_DEFAULTS).catch(failed));
}

/**
 * Imports a file on disk into `batch`, held by link (held-files.ts): its bytes are written once, by whoever
 * wrote the file, and the store keeps a link to it and where each leaf sits; only a file of several leaves
 * has blocks of its own (its inner nodes), and the empty file its one leaf. A file of one chunk held in
 * memory (staging keeps small uploads whole) is one leaf, which Kubo's importer makes the file's root
 * (reduceSingleLeafToSelf): its CID is hashed from those bytes, without the importer or reading the file.
 */
export async function importFileAt(
  batch: BlockBatch,
  held: Pick<HeldFiles, 'newName' | 'link'>,
  path: string,
  options: AddFileOptions,
): Promise<Imported> {
  const size = options.bytes?.length ?? options.size ?? (await stat(path)).size;
  if (size === 0) {
    const { cid, block } = await buildLeaf(new Uint8Array(0));
    batch.put(cid.toString(), block);
    return { cid, dagSize: block.length, size };
  }
  const file = held.newName();
  let result: Imported;
  if (options.bytes && size <= CHUNK_BYTES) {
    const cid = leafCid(options.bytes);
    batch.hold(cid.toString(), { file, offset: 0, length: size });
    const { prefix, suffix } = leafFraming(size);
    result = { cid, dagSize: prefix.length + size + suffix.length, size };
  } else {
    const bufferImporter = placedLeaves((cid, where) => batch.hold(cid.toString(), { file, ...where }));
    const content = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
    result = imported(
      await importFile({ content }, into(batch), { ...KUBO_DEFAULTS, bufferImporter }).catch(failed),
    );
  }
  await held.link(path, file);
  return result;
}

function imported(result: { cid: CID; size: bigint; unixfs?: { fileSize(): bigint } }): Imported {
  return { cid: result.cid, dagSize: Number(result.size), size: Number(result.unixfs?.fileSize() ?? 0n) };
}

function failed(error: unknown): never {
  throw translate(error, 'new file');
}
