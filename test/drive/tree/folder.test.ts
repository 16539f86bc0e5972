import { importer } from 'ipfs-unixfs-importer';
import { describe, expect, it } from 'vitest';
import {
  buildFolder,
  editFolder,
  emptyFolder,
  FOLDER_FANOUT,
  PLAIN_FOLDER_MAX_ESTIMATE,
} from '../../../src/drive/tree/folder.js';
import { ShardEditor } from '../../../src/drive/tree/shard.js';
import { memoryNodes } from './memory-nodes.js';

const EMPTY_FILE = { cid: 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH', dagSize: 6 };
const links = (names: readonly string[]) => names.map((name) => ({ name, ...EMPTY_FILE }));

/** The folder `ipfs add -r` (ipfs-unixfs-importer's Kubo profile) makes of empty files with these names. */
async function addRecursive(names: readonly string[]): Promise<string> {
  const sink = { put: async (cid: unknown) => cid };
  let root = '';
  const candidates = [
    { path: 'd' },
    ...names.map((name) => ({ path: `d/${name}`, content: new Uint8Array(0) })),
  ];
  for await (const entry of importer(candidates, sink as never, { profile: 'unixfs-v0-2015' }))
    if (entry.path === 'd') root = entry.cid.toString();
  return root;
}

describe('category folders', () => {
  it('stay what `ipfs add -r` makes while small', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `p${i}.jpg`);
    const folder = await buildFolder(memoryNodes(), links(names));
    expect(folder.estimate).toBeLessThanOrEqual(PLAIN_FOLDER_MAX_ESTIMATE);
    expect(folder.cid).toBe(await addRecursive(names));
    expect((await emptyFolder(memoryNodes())).cid).toBe(await addRecursive([]));
  });

  it('become a shard past the threshold, and back, with the CID of the names alone', async () => {
    const store = memoryNodes();
    const names = Array.from({ length: 300 }, (_, i) => `photo-${i}.jpg`);
    let folder = await emptyFolder(store);
    for (let at = 0; at < names.length; at += 7)
      folder = await editFolder(store, folder, links(names.slice(at, at + 7)), []);
    const whole = await buildFolder(memoryNodes(), links(names));
    expect(folder).toEqual(whole);
    expect(ShardEditor.fanoutOf(await store.get(folder.cid))).toBe(FOLDER_FANOUT);
    // Down to a handful: plain again, the same as built from those names.
    const kept = names.slice(0, 5);
    const smaller = await editFolder(store, folder, [], names.slice(5));
    expect(smaller.cid).toBe(await addRecursive(kept));
    expect(smaller.estimate).toBe((await buildFolder(memoryNodes(), links(kept))).estimate);
  });

  it('costs a small path per change at 10,000 files', async () => {
    const store = memoryNodes();
    const names = Array.from({ length: 10_000 }, (_, i) => `scan ${i} of the archive.pdf`);
    const folder = await buildFolder(store, links(names));
    store.putBytes = 0;
    const grown = await editFolder(store, folder, links(['one more.pdf']), []);
    expect(store.putBytes).toBeLessThan(3072);
    store.putBytes = 0;
    await editFolder(store, grown, [], ['scan 5000 of the archive.pdf']);
    expect(store.putBytes).toBeLessThan(3072);
  });
});
