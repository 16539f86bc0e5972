import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { importFile } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { translate } from './embedded-errors.js';
import { buildLeaf, leanLeaves } from './lean-leaves.js';
import { SMALL_FILE_BYTES, type BlockStorage } from './block-storage.js';
import { placedLeaves, type LeafPlace } from './file-leaves.js';
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

type Blocks = Pick<BlockStorage, 'put' | 'forImport' | 'holdFile'>;

/** Imports a byte stream into the store's blocks (small nodes and the first MiB in LMDB). */
export async function importStream(blocks: Blocks, content: AsyncIterable<Uint8Array>): Promise<Imported> {
  return imported(await importFile({ content }, blocks.forImport(), KUBO_DEFAULTS).catch(failed));
}

/**
 * Imports a file on disk. One of a single chunk held in memory is one leaf, which Kubo's importer makes the
 * file's root (reduceSingleLeafToSelf): built directly, without the importer's machinery or reading the
 * file. One past SMALL_FILE_BYTES is imported without copying its data: the store keeps a link to the file
 * and serves its leaves from it (see held-files.ts), so its bytes are written once, by whoever wrote the file.
 */
export async function importFileAt(blocks: Blocks, path: string, options: AddFileOptions): Promise<Imported> {
  const size = options.bytes?.length ?? options.size ?? (await stat(path)).size;
  if (options.bytes && size > 0 && size <= CHUNK_BYTES) {
    const { cid, block } = await buildLeaf(options.bytes);
    await blocks.put(cid, block);
    return { cid, dagSize: block.length, size };
  }
  if (size <= SMALL_FILE_BYTES) return importStream(blocks, createReadStream(path));
  const leaves = new Map<string, LeafPlace>();
  const bufferImporter = placedLeaves((cid, where) => leaves.set(cid.toString(), where));
  const content = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const result = await importFile({ content }, blocks, { ...KUBO_DEFAULTS, bufferImporter }).catch(failed);
  await blocks.holdFile(path, leaves);
  return imported(result);
}

function imported(result: { cid: CID; size: bigint; unixfs?: { fileSize(): bigint } }): Imported {
  return { cid: result.cid, dagSize: Number(result.size), size: Number(result.unixfs?.fileSize() ?? 0n) };
}

function failed(error: unknown): never {
  throw translate(error, 'new file');
}
