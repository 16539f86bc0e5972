import { randomBytes } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import type { DirectoryLink } from '../../../src/drive/store/dag.js';
import { editShardedDirectory, encodeShardedDirectory } from '../../../src/drive/store/hamt.js';
import { blockStore } from './block-store.js';

async function link(name: string): Promise<DirectoryLink> {
  const cid = CID.createV0(await sha256.digest(randomBytes(16))).toString();
  return { name, cid, dagSize: randomBytes(2).readUInt16BE() };
}

/** Every node reachable from `root` through sub-shard links (two-character names) is in `blocks`. */
function reachable(blocks: Map<string, Uint8Array>, root: string): number {
  const bytes = blocks.get(root);
  if (!bytes) throw new Error(`node ${root} was never stored`);
  const subShards = dagPb.decode(bytes).Links.filter((l) => l.Name!.length === 2);
  return 1 + subShards.reduce((sum, l) => sum + reachable(blocks, l.Hash.toString()), 0);
}

describe('sharded folders grown from their previous version', () => {
  it('are the shard encoded from all their links, storing only the nodes on the new names’ paths', async () => {
    const store = blockStore();
    let links = await Promise.all(Array.from({ length: 3_000 }, (_, i) => link(`photo-${i}.jpg`)));
    let current = await encodeShardedDirectory(links, store.putBlock);
    for (let step = 0; step < 60; step++) {
      const added = await Promise.all(
        Array.from({ length: 1 + (step % 3) }, (_, i) => link(`new ${step}-${i} été.jpg`)),
      );
      // Every fifth step also names a file already there: it keeps its first link.
      const again = step % 5 === 4 ? [{ ...(await link('photo-7.jpg')) }] : [];
      let stored = 0;
      const grown = await editShardedDirectory(current.cid, [...added, ...again], async (bytes) => {
        stored++;
        return store.putBlock(bytes);
      });
      links = [...links, ...added];
      const whole = await encodeShardedDirectory(links, blockStore().putBlock);
      expect(grown).toEqual(whole);
      // 3,000 names over 256 slots, about 250 nodes: the root and at most two levels below it per new name.
      expect(stored).toBeLessThanOrEqual(1 + 2 * added.length);
      current = grown!;
    }
    expect(reachable(store.blocks, current.cid)).toBeGreaterThan(200);
  });

  it('answers null for a shard it has not encoded lately, or one already grown', async () => {
    const store = blockStore();
    const links = await Promise.all(Array.from({ length: 50 }, (_, i) => link(`f${i}`)));
    const first = await encodeShardedDirectory(links, store.putBlock);
    const unknown = CID.createV0(await sha256.digest(randomBytes(8))).toString();
    expect(await editShardedDirectory(unknown, [await link('x')], store.putBlock)).toBeNull();
    expect(await editShardedDirectory(first.cid, [await link('y')], store.putBlock)).not.toBeNull();
    // Its trie became the next version: the first CID no longer names it.
    expect(await editShardedDirectory(first.cid, [await link('z')], store.putBlock)).toBeNull();
  });
});
