import { createServer, type Server } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/drive/store/gateway.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { register, type Owner } from '../helpers/multipart.js';
import { collect, pseudoRandom } from './helpers.js';
import { postJson, upload } from './http.js';

/** Every file left under a folder (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A sister station's gateway behind a proxy that flips one byte near the end of every CAR (inside a leaf). */
async function corruptingProxy(upstream: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void (async () => {
      const answer = await fetch(`${upstream}${req.url}`, {
        headers: { accept: req.headers.accept ?? '*/*' },
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if ((answer.headers.get('content-type') ?? '').startsWith('application/vnd.ipld.car'))
        body.writeUInt8(body.readUInt8(body.length - 100) ^ 0x01, body.length - 100);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}` };
}

describe('copy from another station’s gateway, verified block by block', () => {
  let sister: TestApp;
  let sisterGateway: Gateway;
  let proxy: Awaited<ReturnType<typeof corruptingProxy>>;
  let t: TestApp;
  let bob: Owner;
  let content: Buffer;
  let root: string;

  beforeAll(async () => {
    sister = await buildTestApp();
    const alice = await register(sister, 'alice@example.org');
    content = await collect(pseudoRandom(1024 * 1024 + 777, 'sister'));
    const published = await upload(sister, alice, 'data.bin', content);
    expect(published.statusCode).toBe(200);
    root = published.json().new_cid;
    sisterGateway = await startGateway(sister.app.contentStore, { host: '127.0.0.1', port: 0 });
    proxy = await corruptingProxy(sisterGateway.url);
    t = await buildTestApp({ env: { MIRROR_TRUSTED_ORIGINS: `${proxy.url},${sisterGateway.url}` } });
    bob = await register(t, 'bob@example.org');
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.server.close(resolve));
    await sisterGateway.close();
    await t.close();
    await sister.close();
  });

  it('refuses a CAR with a corrupted block: CONTENT_UNVERIFIED, nothing in the drive, nothing staged', async () => {
    const before = [...(await filesUnder(t.config.tmpDir)), ...(await filesUnder(bob.dir))];
    const res = await postJson(t, bob, '/api/upload_from_drive', {
      ipfs_link: `${proxy.url}/ipfs/${root}/Documents/data.bin`,
      npub: bob.npub,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      code: 'CONTENT_UNVERIFIED',
      detail: expect.stringContaining('does not match'),
    });
    expect((await t.app.drive.list(bob)).files).toEqual([]);
    expect([...(await filesUnder(t.config.tmpDir)), ...(await filesUnder(bob.dir))]).toEqual(before);
    expect(await filesUnder(join(t.config.dataRoot, '.drive-staging'))).toEqual([]);
  });

  it('lands the same copy byte for byte through the honest gateway', async () => {
    const res = await postJson(t, bob, '/api/upload_from_drive', {
      ipfs_link: `${sisterGateway.url}/ipfs/${root}/Documents/data.bin`,
      npub: bob.npub,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().file_path).toBe('APP/uDRIVE/Documents/data.bin');
    expect((await readFile(join(bob.dir, 'APP/uDRIVE/Documents/data.bin'))).equals(content)).toBe(true);
    const [file] = (await t.app.drive.list(bob)).files;
    expect(file!.source).toEqual({
      kind: 'drive',
      ipfs_link: `${root}/Documents/data.bin`,
      cid: expect.any(String),
    });
    expect(await filesUnder(join(t.config.dataRoot, '.drive-staging'))).toEqual([]);
  });

  it('keeps bare CIDs on the local store and refuses URLs that are not gateway paths', async () => {
    const bare = await postJson(t, bob, '/api/upload_from_drive', {
      ipfs_link: `${root}/Documents/data.bin`,
    });
    expect(bare.statusCode).toBe(404);
    const nonGateway = await postJson(t, bob, '/api/upload_from_drive', {
      ipfs_link: `${proxy.url}/file.bin`,
    });
    expect(nonGateway.statusCode).toBe(400);
    expect(nonGateway.json().code).toBe('INVALID_IPFS_PATH');
  });
});
