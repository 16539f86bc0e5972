import type { FsBlockstore } from 'blockstore-fs';
import type { CID } from 'multiformats/cid';

type Put = FsBlockstore['put'];

/**
 * Writes each block once. blockstore-fs writes a block through a temp file of a fixed name: two writes of one
 * block at the same moment (the same file uploaded twice at once, by two users or one) make the second wait
 * about a second for its rename retries. A block already on disk is not written again either: content
 * addressing makes it the same bytes.
 */
export class OnceBlocks {
  private readonly writing = new Map<string, Promise<CID>>();

  constructor(private readonly blocks: Pick<FsBlockstore, 'put' | 'has'>) {}

  readonly put: Put = async (cid, bytes, options) => {
    const key = cid.toString();
    const pending = this.writing.get(key);
    if (pending) return pending;
    const write = (async () => {
      if (await this.blocks.has(cid, options)) return cid;
      return this.blocks.put(cid, bytes, options);
    })();
    this.writing.set(key, write);
    try {
      return await write;
    } finally {
      this.writing.delete(key);
    }
  };
}
