import { importer } from 'ipfs-unixfs-importer';
import { describe, expect, it } from 'vitest';
import { ShardEditor } from '../../../src/drive/tree/shard.js';
import { memoryNodes } from './memory-nodes.js';

const FILE_CID = 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH';

const links = (names: readonly string[]) =>
  names.map((name, i) => ({ name, cid: FILE_CID, dagSize: 10 + i }));

/** The shard ipfs-unixfs-importer builds for a folder of empty-named links, at this fanout. */
async function importerShard(names: readonly string[], fanoutBits: number): Promise<string> {
  const sink = { put: async (cid: unknown) => cid };
  const candidates = [
    { path: 'dir' },
    ...names.map((name) => ({ path: `dir/${name}`, content: new Uint8Array(0) })),
  ];
  let root = '';
  for await (const entry of importer(candidates, sink as never, {
    profile: 'unixfs-v0-2015',
    shardSplitThresholdBytes: 0,
    shardFanoutBits: fanoutBits,
  }))
    if (entry.path === 'dir') root = entry.cid.toString();
  return root;
}

describe('ShardEditor', () => {
  it.each([16, 256])('builds the shard ipfs-unixfs-importer builds (fanout %i)', async (fanout) => {
    const names = Array.from({ length: 300 }, (_, i) => `file-${i}.txt`);
    const store = memoryNodes();
    // The importer links empty files; the editor links them the same way (their CID and Tsize).
    const empty = { cid: 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH', dagSize: 6 };
    const built = await new ShardEditor(store, fanout).build(names.map((name) => ({ name, ...empty })));
    expect(built.cid).toBe(await importerShard(names, Math.log2(fanout)));
  });

  it('gives the same shard whatever the order of changes, removals folded back', async () => {
    const store = memoryNodes();
    const editor = new ShardEditor(store, 16);
    const names = Array.from({ length: 400 }, (_, i) => `photo ${i}.jpg`);
    const whole = await editor.build(links(names));
    // Built from the first 100, then the rest added in pieces, then 150 removed and added back.
    let ref = await editor.build(links(names).slice(0, 100));
    for (let at = 100; at < 400; at += 37)
      ref = await editor.edit(ref.cid, links(names).slice(at, at + 37), []);
    expect(ref).toEqual(whole);
    const removed = names.filter((_, i) => i % 3 === 0).slice(0, 150);
    const fewer = await editor.edit(ref.cid, [], removed);
    const kept = links(names).filter((l) => !removed.includes(l.name));
    expect(fewer).toEqual(await editor.build(kept));
    const back = await editor.edit(
      fewer.cid,
      links(names).filter((l) => removed.includes(l.name)),
      [],
    );
    expect(back).toEqual(whole);
    expect((await editor.entries(back.cid)).map((e) => e.name).sort()).toEqual([...names].sort());
  });

  it('re-encodes only the nodes on the changed path', async () => {
    const store = memoryNodes();
    const editor = new ShardEditor(store, 16);
    const names = Array.from({ length: 10_000 }, (_, i) => `document-${i}.pdf`);
    const ref = await editor.build(links(names));
    store.puts = 0;
    store.putBytes = 0;
    await editor.edit(ref.cid, links(['one more.pdf']), []);
    expect(store.puts).toBeLessThanOrEqual(5);
    expect(store.putBytes).toBeLessThan(4096);
  });
});
