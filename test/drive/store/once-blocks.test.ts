import { join } from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnceBlocks } from '../../../src/drive/store/once-blocks.js';
import { tempDir } from '../../helpers/temp.js';

/** The same block written at once from two uploads must hit the disk once (blockstore-fs stalls otherwise). */
describe('OnceBlocks', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let blocks: FsBlockstore;
  beforeAll(async () => {
    dir = await tempDir();
    blocks = new FsBlockstore(join(dir.path, 'blocks'));
    await blocks.open();
  });
  afterAll(async () => {
    await blocks.close();
    await dir.cleanup();
  });

  it('writes a block once however many write it at the same moment, and never rewrites one on disk', async () => {
    let writes = 0;
    const counting = {
      has: blocks.has.bind(blocks),
      put: (...args: Parameters<FsBlockstore['put']>) => (writes++, blocks.put(...args)),
    };
    const once = new OnceBlocks(counting);
    const bytes = new TextEncoder().encode('the same block, twice at once');
    const cid = CID.createV1(0x55, await sha256.digest(bytes));
    const results = await Promise.all(Array.from({ length: 10 }, () => once.put(cid, bytes)));
    expect(results.every((r) => r.equals(cid))).toBe(true);
    expect(writes).toBe(1);
    await once.put(cid, bytes);
    expect(writes).toBe(1);
    expect(await blocks.has(cid)).toBe(true);
  });
});
