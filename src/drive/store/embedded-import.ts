import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { importFile } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import type { BlockBatch } from '../db/block-batch.js';
import { translate } from './embedded-errors.js';
import { buildLeaf, leanLeaves } from './lean-leaves.js';
import type { HeldFiles } from './held-files.js';
import { placedLeaves } from './file-leaves.js';
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

/**
 * Files up to this size are imported into the batch, hence into LMDB, whole; a larger file is held by link
 * (held-files.ts): its leaves stay in the file, only its inner nodes are blocks. LMDB keeps pages it writes
 * mapped (file-backed memory, /health's `memory.file_backed_mb`), and a block file costs nothing resident.
 */
export const SMALL_FILE_BYTES = 1024 * 1024;

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
 * Imports a file on disk into `batch`. One of a single chunk held in memory is one leaf, which Kubo's
 * importer makes the file's root (reduceSingleLeafToSelf): built directly, without the importer's machinery
 * or reading the file. One past SMALL_FILE_BYTES is held by link: its bytes are written once, by whoever
 * wrote the file.
 */
export async function importFileAt(
  batch: BlockBatch,
  held: Pick<HeldFiles, 'newName' | 'link'>,
  path: string,
  options: AddFileOptions,
): Promise<Imported> {
  const size = options.bytes?.length ?? options.size ?? (await stat(path)).size;
  if (options.bytes && size > 0 && size <= CHUNK_BYTES) {
    const { cid, block } = await buildLeaf(options.bytes);
    batch.put(cid.toString(), block);
    return { cid, dagSize: block.length, size };
  }
  if (size <= SMALL_FILE_BYTES) return importStream(batch, createReadStream(path));
  const file = held.newName();
  const bufferImporter = placedLeaves((cid, where) => batch.hold(cid.toString(), { file, ...where }));
  const content = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const result = await importFile({ content }, into(batch), { ...KUBO_DEFAULTS, bufferImporter }).catch(
    failed,
  );
  await held.link(path, file);
  return imported(result);
}

function imported(result: { cid: CID; size: bigint; unixfs?: { fileSize(): bigint } }): Imported {
  return { cid: result.cid, dagSize: Number(result.size), size: Number(result.unixfs?.fileSize() ?? 0n) };
}

function failed(error: unknown): never {
  throw translate(error, 'new file');
}
