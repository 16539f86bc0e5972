import { createHash } from 'node:crypto';
import { CarBlockIterator } from '@ipld/car/iterator';
import * as dagPb from '@ipld/dag-pb';
import { exporter } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { collect, once_, pseudoRandom } from '../helpers.js';
import { serveEmbedded, type ServedStore } from './open-store.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

async function carOf(response: Response) {
  const iterator = await CarBlockIterator.fromBytes(new Uint8Array(await response.arrayBuffer()));
  const blocks: { cid: CID; bytes: Uint8Array }[] = [];
  for await (const block of iterator) blocks.push(block);
  return { roots: await iterator.getRoots(), blocks };
}

describe('trustless gateway formats (raw block, CAR)', () => {
  let served: ServedStore;
  let store: EmbeddedStore;
  let big: Buffer;
  let bigCid: string;
  let folderCid: string;

  beforeAll(async () => {
    served = await serveEmbedded('trustless-', { carLimits: { maxBlocks: 50, maxBytes: 1e9 } });
    ({ store } = served);
    big = await collect(pseudoRandom(3 * 1024 * 1024, 'trustless'));
    const added = await store.add(once_(big));
    bigCid = added.cid;
    const text = await store.add(once_(Buffer.from('bonjour\n')));
    folderCid = await served.folder([
      { name: 'big.bin', cid: added.cid, dagSize: added.dagSize },
      { name: 'notes.txt', cid: text.cid, dagSize: text.dagSize },
    ]);
  });
  afterAll(() => served.close());

  const get = (path: string, headers: Record<string, string> = {}) => served.get(path, headers);

  it('streams a 3 MiB file as a CAR whose blocks hash to their CIDs and rebuild it byte for byte', async () => {
    const response = await get(`/ipfs/${bigCid}?format=car`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.ipld.car; version=1; order=dfs; dups=n',
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=29030400, immutable');
    expect(response.headers.get('etag')).toBe(`"${bigCid}.car.all.dups-n"`);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${bigCid}.car"`);
    const { roots, blocks } = await carOf(response);
    expect(roots.map(String)).toEqual([bigCid]);
    expect(blocks[0]!.cid.toString()).toBe(bigCid);
    expect(blocks.length).toBe(1 + 12);
    for (const { cid, bytes } of blocks)
      expect(sha256(bytes).equals(Buffer.from(cid.multihash.digest))).toBe(true);
    const held = new Map(blocks.map((b) => [b.cid.toString(), b.bytes]));
    const blockstore = {
      async *get(cid: CID) {
        yield held.get(cid.toString())!;
      },
    };
    const entry = await exporter(CID.parse(bigCid), blockstore);
    if (entry.type !== 'file') throw new Error(`not a file: ${entry.type}`);
    expect((await collect(entry.content())).equals(big)).toBe(true);
  });

  it('answers ?format=raw of a leaf with exactly its bytes, which hash to its CID', async () => {
    const root = dagPb.decode(await store.getBlock(bigCid));
    const leaf = root.Links[1]!.Hash;
    const response = await get(`/ipfs/${leaf.toString()}?format=raw`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.ipld.raw');
    expect(response.headers.get('etag')).toBe(`"${leaf.toString()}.raw"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes).equals(Buffer.from(await store.getBlock(leaf.toString())))).toBe(true);
    expect(sha256(bytes).equals(Buffer.from(leaf.multihash.digest))).toBe(true);
    const withPath = await get(`/ipfs/${folderCid}/notes.txt?format=raw`);
    expect(withPath.status).toBe(400);
    expect(((await withPath.json()) as { code: string }).code).toBe('INVALID_IPFS_PATH');
  });

  it('negotiates by Accept, format= first; unknown formats are 400 and verifiable-only Accepts 406, as JSON', async () => {
    const raw = await get(`/ipfs/${bigCid}`, { accept: 'application/vnd.ipld.raw' });
    expect(raw.headers.get('content-type')).toBe('application/vnd.ipld.raw');
    expect(Buffer.from(await raw.arrayBuffer()).equals(Buffer.from(await store.getBlock(bigCid)))).toBe(true);
    const car = await get(`/ipfs/${bigCid}`, {
      accept: 'application/vnd.ipld.car; version=1; order=dfs; dups=y',
    });
    expect(car.headers.get('content-type')).toContain('dups=y');
    await car.arrayBuffer();
    const preferred = await get(`/ipfs/${bigCid}?format=raw`, { accept: 'application/vnd.ipld.car' });
    expect(preferred.headers.get('content-type')).toBe('application/vnd.ipld.raw');
    await preferred.arrayBuffer();
    const browser = await get(`/ipfs/${folderCid}/notes.txt`, { accept: 'text/html,*/*;q=0.8' });
    expect(await browser.text()).toBe('bonjour\n');

    const unknown = await get(`/ipfs/${bigCid}?format=tar&lang=fr`);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(await unknown.json()).toEqual({
      code: 'UNSUPPORTED_FORMAT',
      detail: expect.stringContaining('pas servi'),
    });
    const scope = await get(`/ipfs/${bigCid}?format=car&dag-scope=most`);
    expect(scope.status).toBe(400);
    const refused = await get(`/ipfs/${bigCid}`, { accept: 'application/vnd.ipld.dag-json' });
    expect(refused.status).toBe(406);
    expect(await refused.json()).toEqual({ code: 'NOT_ACCEPTABLE', detail: expect.any(String) });
    const car2 = await get(`/ipfs/${bigCid}`, { accept: 'application/vnd.ipld.car; version=2' });
    expect(car2.status).toBe(406);
    const missing = await get('/ipfs/QmTz3oc4gdpRMKP2sdGUPZTAGRngqjsi99BPoztyP53JMM?format=raw');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('CONTENT_NOT_FOUND');
  });

  it('walks a path from the root, with dag-scope block and entity-bytes', async () => {
    const path = await carOf(await get(`/ipfs/${folderCid}/big.bin?format=car&dag-scope=block`));
    expect(path.roots.map(String)).toEqual([folderCid]);
    expect(path.blocks.map((b) => b.cid.toString())).toEqual([folderCid, bigCid]);
    const text = await carOf(await get(`/ipfs/${folderCid}/notes.txt?format=car`));
    expect(text.blocks.length).toBe(2);
    const folder = await carOf(await get(`/ipfs/${folderCid}?format=car&dag-scope=entity`));
    expect(folder.blocks.map((b) => b.cid.toString())).toEqual([folderCid]);
    const range = await carOf(await get(`/ipfs/${bigCid}?format=car&entity-bytes=300000:300010`));
    const leaves = dagPb.decode(await store.getBlock(bigCid)).Links.map((l) => l.Hash.toString());
    expect(range.blocks.map((b) => b.cid.toString())).toEqual([bigCid, leaves[1]]);
  });

  it('cuts a CAR over its limit instead of ending it as if whole', async () => {
    // 50 blocks at most here: the folder, the 3 MiB file and its leaves fit; a DAG of more does not.
    const manyCid = await served.folder(
      Array.from({ length: 6 }, (_, i) => ({ name: `copy-${i}.bin`, cid: bigCid, dagSize: 3 * 1024 * 1024 })),
    );
    const response = await get(`/ipfs/${manyCid}?format=car&car-dups=y`);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});
