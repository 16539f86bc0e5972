import type { NodeStore } from '../../../src/drive/tree/nodes.js';
import { cidV0Of } from '../../../src/drive/tree/nodes.js';

/** A NodeStore in memory, counting what it is asked to store. */
export function memoryNodes(): NodeStore & {
  blocks: Map<string, Uint8Array>;
  puts: number;
  putBytes: number;
} {
  const blocks = new Map<string, Uint8Array>();
  const store = {
    blocks,
    puts: 0,
    putBytes: 0,
    async get(cid: string) {
      const bytes = blocks.get(cid);
      if (!bytes) throw new Error(`no block ${cid}`);
      return bytes;
    },
    async putKnown(cid: string, bytes: Uint8Array) {
      blocks.set(cid, bytes);
      store.puts += 1;
      store.putBytes += bytes.length;
    },
    async put(bytes: Uint8Array) {
      const cid = cidV0Of(bytes);
      blocks.set(cid, bytes);
      store.puts += 1;
      store.putBytes += bytes.length;
      return cid;
    },
  };
  return store;
}
