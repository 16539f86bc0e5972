import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExplorer } from '../../src/drive/explorer.js';
import { startDriveGateway } from '../../src/drive/plugin.js';
import type { Gateway } from '../../src/drive/store/gateway.js';
import type { Manifest } from '../../src/drive/manifest.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postUpload, register, type Owner } from '../helpers/multipart.js';

const HTML = '<!doctype html><script>document.title = document.cookie</script><p>hi</p>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/** Gateway content is inert: user uploads are served sandboxed, never sniffed into something else. */
describe('embedded gateway: uploaded active content', () => {
  let t: TestApp;
  let gateway: Gateway;
  let owner: Owner;
  let manifest: Manifest;

  beforeAll(async () => {
    t = await buildTestApp({ env: { IPFS_GATEWAY: 'http://127.0.0.1:0' } });
    // The station's gateway, the one that knows the drive explorer: the only file it lets run.
    const started = await startDriveGateway(t.config, t.app.contentStore, t.deps.logger);
    if (!started) throw new Error('the embedded gateway did not start');
    gateway = started;
    owner = await register(t, 'pages@example.org');
    for (const [filename, value] of [
      ['page.html', HTML],
      ['image.svg', SVG],
      ['_index.html', HTML],
    ] as const) {
      const res = await postUpload(t, '/api/upload', {
        npub: owner.npub,
        file: { filename, value },
        signer: owner,
      });
      expect(res.statusCode).toBe(200);
    }
    manifest = await t.app.drive.list(owner);
  });
  afterAll(async () => {
    await gateway.close();
    await t.close();
  });

  const link = (name: string) => manifest.files.find((f) => f.name === name)!.ipfs_link;
  const get = (
    path: string,
    headers: Record<string, string> = {},
    redirect: 'follow' | 'manual' = 'follow',
  ) => fetch(`${gateway.url}${path}`, { headers, redirect });

  function expectInert(response: Response) {
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  }

  it.each([
    ['page.html', 'text/html', HTML],
    ['image.svg', 'image/svg+xml', SVG],
  ])('serves %s sandboxed and nosniff', async (name, type, content) => {
    const response = await get(`/ipfs/${link(name)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
    expectInert(response);
    expect(await response.text()).toBe(content);
  });

  it('keeps Range working, and the bare CID and the directory listing inert too', async () => {
    const partial = await get(`/ipfs/${link('page.html')}`, { range: 'bytes=0-8' });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe(HTML.slice(0, 9));
    expectInert(partial);
    const entry = manifest.files.find((f) => f.name === 'image.svg')!;
    expectInert(await get(`/ipfs/${entry.cid}`));
    const listing = await get(`/ipfs/${entry.ipfs_link.split('/')[0]}`);
    expect(listing.headers.get('content-type')).toContain('text/html');
    expectInert(listing);
    expectInert(await get('/ipfs/not-a-cid'));
  });

  it('keeps an uploaded _index.html sandboxed; only the drive root’s explorer runs, under its own policy', async () => {
    expect(manifest.files.find((f) => f.name === '_index.html')?.path).toBe('Documents/_index.html');
    const uploaded = await get(`/ipfs/${manifest.root_cid}/Documents/_index.html`);
    expect(uploaded.headers.get('content-type')).toContain('text/html');
    expectInert(uploaded);
    expect(await uploaded.text()).toBe(HTML);
    expectInert(await get(`/ipfs/${link('_index.html')}`));

    const explorer = await loadExplorer();
    const root = await get(`/ipfs/${manifest.root_cid}/_index.html`);
    expect(root.status).toBe(200);
    const policy = root.headers.get('content-security-policy') ?? '';
    expect(policy).not.toContain('sandbox');
    expect(policy).toContain(`script-src '${explorer.scriptHash}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(root.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await root.arrayBuffer()).equals(Buffer.from(explorer.bytes))).toBe(true);
    // The drive root itself leads to its explorer; its folders stay plain, inert listings.
    const redirect = await get(`/ipfs/${manifest.root_cid}/`, {}, 'manual');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('_index.html');
    expectInert(redirect);
    const folder = await get(`/ipfs/${manifest.root_cid}/Documents/`);
    expect(folder.status).toBe(200);
    expectInert(folder);
  });
});
