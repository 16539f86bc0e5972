import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDirectory } from '../../../src/drive/store/dag.js';
import { KuboStore, type KuboStoreOptions } from '../../../src/drive/store/kubo.js';
import { tempDir } from '../../helpers/temp.js';
import { collect, ipfsCidOf, once_, pseudoRandom, writeStream } from '../helpers.js';
import { startFakeKubo, type FakeKubo } from './fake-kubo.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('Kubo content store (kubo-rpc-client against a server speaking Kubo’s RPC format)', () => {
  let kubo: FakeKubo;
  let store: KuboStore;

  beforeAll(async () => {
    kubo = await startFakeKubo();
    store = new KuboStore(kubo.url, { timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await store.close();
    await kubo.close();
  });

  const lastRequest = (path: string) => kubo.requests.filter((r) => r.path === path).at(-1)!;

  it('adds with Kubo’s default import parameters spelled out and gets the same CIDs', async () => {
    const hello = await store.add(once_(Buffer.from('hello world\n')));
    expect(hello).toEqual({ cid: 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o', size: 12, dagSize: 20 });
    const params = Object.fromEntries(lastRequest('add').params);
    expect(params).toMatchObject({
      'cid-version': '0',
      'raw-leaves': 'false',
      chunker: 'size-262144',
      trickle: 'false',
      pin: 'true',
    });

    const dir = await tempDir('kubo-add-');
    try {
      const file = join(dir.path, 'three-mb');
      await writeStream(file, pseudoRandom(3 * 1024 * 1024 + 5, 'kubo'));
      const added = await store.add(pseudoRandom(3 * 1024 * 1024 + 5, 'kubo'), { pin: false });
      expect(added.cid).toBe(await ipfsCidOf(file));
      expect(added.size).toBe(3 * 1024 * 1024 + 5);
      expect(lastRequest('add').params.get('pin')).toBe('false');
      const slice = await collect(store.cat(added.cid, { offset: 300_000, length: 1000 }));
      const whole = await collect(pseudoRandom(301_000, 'kubo'));
      expect(slice.equals(whole.subarray(300_000))).toBe(true);
      expect(Object.fromEntries(lastRequest('cat').params)).toMatchObject({
        arg: `/ipfs/${added.cid}`,
        offset: '300000',
        length: '1000',
      });
      expect(await store.stat(added.cid)).toEqual({ type: 'file', ...added });
    } finally {
      await dir.cleanup();
    }
  });

  it('stores directory nodes and returns their CIDv0 although Kubo answers in CIDv1', async () => {
    const hello = await store.add(once_(Buffer.from('hello world\n')));
    const node = await encodeDirectory([{ name: 'à b.txt', cid: hello.cid, dagSize: hello.dagSize }]);
    expect(await store.putBlock(node.bytes)).toBe(node.cid);
    // Kubo answers the CID it computed, whatever the caller expects: the caller's comparison is what catches
    // a daemon with other defaults.
    const other = (await encodeDirectory([])).cid;
    expect(await store.putBlock(node.bytes, other)).toBe(node.cid);
    expect(await store.ls(node.cid)).toEqual([{ name: 'à b.txt', cid: hello.cid, type: 'file', size: 12 }]);
    expect(await store.stat(node.cid)).toEqual({
      cid: node.cid,
      type: 'directory',
      size: 0,
      dagSize: node.dagSize,
    });
    expect((await collect(store.cat(`${node.cid}/à b.txt`))).toString()).toBe('hello world\n');
    const empty = await encodeDirectory([]);
    await store.putBlock(empty.bytes);
    expect(await store.ls(empty.cid)).toEqual([]);
  });

  it('reads blocks back through block/get, and holds what it can stat', async () => {
    const hello = await store.add(once_(Buffer.from('hello world\n')));
    const node = await encodeDirectory([{ name: 'read.txt', cid: hello.cid, dagSize: hello.dagSize }]);
    await store.putBlock(node.bytes);
    const bytes = await store.getBlock(node.cid);
    expect(Buffer.from(bytes).equals(Buffer.from(node.bytes))).toBe(true);
    expect(lastRequest('block/get').params.get('arg')).toBe(node.cid);
    const missing = 'QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51';
    await expect(store.getBlock(missing)).rejects.toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    await expect(store.getBlock('nonsense')).rejects.toMatchObject({ code: 'INVALID_IPFS_PATH' });
    expect(await store.holds(node.cid)).toBe(true);
    expect(await store.holds(missing)).toBe(false);
  });

  it('maps Kubo’s error messages to typed errors', async () => {
    const hello = await store.add(once_(Buffer.from('hello world\n')));
    const node = await encodeDirectory([{ name: 'a', cid: hello.cid, dagSize: hello.dagSize }]);
    await store.putBlock(node.bytes);
    await expect(store.stat(`${node.cid}/missing`)).rejects.toMatchObject({
      code: 'CONTENT_NOT_FOUND',
    });
    await expect(collect(store.cat(node.cid))).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    await expect(store.ls(hello.cid)).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
    await expect(store.stat('nonsense')).rejects.toMatchObject({ code: 'INVALID_IPFS_PATH' });
  });

  it('pins, lists pins and unpins (twice is fine)', async () => {
    const added = await store.add(once_(Buffer.from('pin me')), { pin: false });
    expect(await store.pins()).not.toContain(added.cid);
    await store.pin(added.cid);
    expect(lastRequest('pin/add').params.get('recursive')).toBe('true');
    expect(await store.pins()).toContain(added.cid);
    await store.unpin(added.cid);
    await store.unpin(added.cid);
    expect(await store.pins()).not.toContain(added.cid);
  });

  it('reports health, a node that is down (503) and one that never answers (504)', async () => {
    expect(await store.health()).toEqual({ ok: true, detail: 'kubo 0.36.0' });
    const down = new KuboStore(`http://127.0.0.1:${await closedPort()}`);
    expect((await down.health()).ok).toBe(false);
    await expect(down.stat('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o')).rejects.toMatchObject({
      code: 'CONTENT_STORE_DOWN',
    });
    await expect(down.add(once_(Buffer.from('x')))).rejects.toMatchObject({ code: 'CONTENT_STORE_DOWN' });
    const slowCid = 'QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51';
    kubo.hang.add(slowCid);
    const impatient = new KuboStore(kubo.url, { timeoutMs: 200 });
    await expect(impatient.stat(slowCid)).rejects.toMatchObject({
      code: 'CONTENT_STORE_TIMEOUT',
    });
  });

  it('tells an outage of the node once, however many calls fail', async () => {
    const lines: string[] = [];
    const logger = {
      warn: (_: object, msg: string) => lines.push(msg),
      info: (_: object, msg: string) => lines.push(msg),
    };
    const api = `http://127.0.0.1:${await closedPort()}`;
    const down = new KuboStore(api, { logger: logger as unknown as KuboStoreOptions['logger'] });
    for (let i = 0; i < 5; i++)
      await expect(down.stat('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o')).rejects.toMatchObject({
        code: 'CONTENT_STORE_DOWN',
      });
    await expect(down.add(once_(Buffer.from('x')))).rejects.toMatchObject({ code: 'CONTENT_STORE_DOWN' });
    expect(lines).toEqual([`Kubo ${api} unreachable`]);
  });
});
