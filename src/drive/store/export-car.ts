import { CarWriter } from '@ipld/car/writer';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';

/** Where blocks are read from: BlockStorage (small blocks, held files' leaves, block files alike). */
export interface BlockSource {
  get(cid: CID): AsyncIterable<Uint8Array>;
}

export interface DagExport {
  /** The CARv1 stream (header naming `roots`, then each block once), produced as it is read. */
  car: AsyncIterable<Uint8Array>;
  /** Settles once every block is written: rejects with the walk's error (a missing block), if any. */
  done: Promise<{ blocks: number; bytes: number }>;
}

async function blockBytes(source: BlockSource, cid: CID): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source.get(cid)) parts.push(part);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * Every block reachable from `roots` as one CAR stream, each block once, depth first. The writer waits for
 * the reader to take each block, so memory holds one block at a time plus the set of CIDs seen. Drives are
 * dag-pb all the way down (CIDv0, no raw leaves): links are followed in dag-pb nodes only.
 */
export function exportDag(source: BlockSource, roots: readonly CID[]): DagExport {
  const { writer, out } = CarWriter.create([...roots]);
  const walk = async () => {
    const seen = new Set<string>();
    const stack = [...roots].reverse();
    let blocks = 0;
    let bytes = 0;
    try {
      for (let cid = stack.pop(); cid; cid = stack.pop()) {
        const key = cid.toString();
        if (seen.has(key)) continue;
        seen.add(key);
        const block = await blockBytes(source, cid);
        await writer.put({ cid, bytes: block });
        blocks += 1;
        bytes += block.byteLength;
        if (cid.code !== dagPb.code) continue;
        const links = dagPb.decode(block).Links;
        for (let i = links.length - 1; i >= 0; i--) stack.push(links[i]!.Hash);
      }
    } finally {
      // A failed walk still ends the stream, so its reader is not left waiting; `done` carries the error.
      await writer.close();
    }
    return { blocks, bytes };
  };
  const done = walk();
  // Handled by whoever awaits `done`; until then a failed walk must not count as an unhandled rejection.
  done.catch(() => undefined);
  return { car: out, done };
}
