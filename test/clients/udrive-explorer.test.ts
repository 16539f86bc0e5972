import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExplorer } from '../../src/drive/explorer.js';
import { openPage } from '../helpers/browser.js';
import { multipart } from '../helpers/multipart.js';
import { nip98Header } from '../helpers/nostr.js';
import { startExplorerStation, type ExplorerStation, type Member } from '../drive/explorer-station.js';

/**
 * uDRIVE's explorer (Astroport's generated drive page): `uploadFiles` posts `FormData` with `file` then
 * `npub` to `<api>/api/upload`, then `redirectToNewCid(new_cid)` sends the browser to
 * `<protocol>//<host>/ipfs/<new_cid>` (no trailing slash); `reloadManifest` reads
 * `/ipfs/<new_cid>/manifest.json` (`files[].name/path/size/type/ipfs_link`, `owner_hex_pubkey`,
 * `my_ipfs_gateway`); `syncFile` posts `{ipfs_link, npub, owner_hex_pubkey, owner_email}` to
 * `/api/upload_from_drive`; `deleteFileByIndex` posts `{file_path: item.path, npub}` to `/api/delete`.
 */
describe('uDRIVE explorer flow (redirectToNewCid)', () => {
  let s: ExplorerStation;
  let alice: Member;
  beforeAll(async () => {
    s = await startExplorerStation();
    alice = await s.register('udrive@example.org');
  });
  afterAll(() => s?.close());

  /** The explorer's FormData order (`file`, then `npub`), signed: the owner is then known up front. */
  async function uploadLikeUdrive(name: string, content: string) {
    const { body, contentType } = multipart([
      { name: 'file', value: Buffer.from(content), filename: name },
      { name: 'npub', value: alice.npub },
    ]);
    const url = `${s.api}/api/upload`;
    const headers = { 'content-type': contentType, origin: s.gateway.url };
    const unsigned = await fetch(url, { method: 'POST', headers, body });
    expect(unsigned.status).toBe(401);
    const authorization = nip98Header(alice, url, 'POST', { body });
    const res = await fetch(url, { method: 'POST', headers: { ...headers, authorization }, body });
    expect(res.status).toBe(200);
    // The gateway's pages may read the answer (CORS for the station's own origins).
    expect(res.headers.get('access-control-allow-origin')).toBe(s.gateway.url);
    return (await res.json()) as { new_cid: string; file_path: string };
  }

  it('after an upload, <gateway>/ipfs/<new_cid> leads to a working explorer, not a bare listing', async () => {
    const answer = await uploadLikeUdrive('carnet.md', '# Carnet\n');
    const explorer = await loadExplorer();
    for (const url of [
      `${s.gateway.url}/ipfs/${answer.new_cid}`,
      `${s.gateway.url}/ipfs/${answer.new_cid}/`,
    ]) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.url).toBe(`${s.gateway.url}/ipfs/${answer.new_cid}/_index.html`);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toContain(`'${explorer.scriptHash}'`);
      expect(Buffer.from(await page.arrayBuffer()).equals(Buffer.from(explorer.bytes))).toBe(true);
    }

    // reloadManifest(newCid): the fields the uDRIVE explorer reads.
    const manifest = (await (
      await fetch(`${s.gateway.url}/ipfs/${answer.new_cid}/manifest.json`)
    ).json()) as {
      owner_hex_pubkey: string;
      my_ipfs_gateway: string;
      total_files: number;
      files: Array<{ name: string; path: string; size: number; type: string; ipfs_link: string }>;
    };
    expect(manifest).toMatchObject({
      owner_hex_pubkey: alice.hex,
      my_ipfs_gateway: s.gateway.url,
      total_files: 1,
    });
    const [file] = manifest.files;
    expect(file).toMatchObject({ name: 'carnet.md', path: 'Documents/carnet.md', size: 9, type: 'document' });
    expect(await (await fetch(`${s.gateway.url}/ipfs/${file!.ipfs_link}`)).text()).toBe('# Carnet\n');

    // In a browser, the same address is the explorer, listing the new file.
    const { page, problems, close } = await openPage(s.browser);
    try {
      await page.goto(`${s.gateway.url}/ipfs/${answer.new_cid}`);
      await page.waitForSelector('li[data-path="Documents/carnet.md"]');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('syncFile and deleteFileByIndex answer a new_cid that leads to the explorer too', async () => {
    const bob = await s.register('udrive-bob@example.org');
    const source = (await s.listing(alice)).files[0]!;
    const syncUrl = `${s.api}/api/upload_from_drive`;
    const sync = JSON.stringify({
      ipfs_link: source.ipfs_link,
      npub: bob.npub,
      owner_hex_pubkey: alice.hex,
      owner_email: 'udrive@example.org',
    });
    const synced = await fetch(syncUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: nip98Header(bob, syncUrl, 'POST', { body: sync }),
      },
      body: sync,
    });
    expect(synced.status).toBe(200);
    const { new_cid: bobRoot } = (await synced.json()) as { new_cid: string };
    const bobManifest = await (await fetch(`${s.gateway.url}/ipfs/${bobRoot}/manifest.json`)).json();
    expect(bobManifest).toMatchObject({
      owner_hex_pubkey: bob.hex,
      files: [{ path: 'Documents/carnet.md' }],
    });

    const deleteUrl = `${s.api}/api/delete`;
    const removal = JSON.stringify({ file_path: source.path, npub: alice.npub });
    const unsigned = await fetch(deleteUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: removal,
    });
    expect(unsigned.status).toBe(401);
    const deleted = await fetch(deleteUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: nip98Header(alice, deleteUrl, 'POST', { body: removal }),
      },
      body: removal,
    });
    expect(deleted.status).toBe(200);
    const { new_cid: emptied } = (await deleted.json()) as { new_cid: string };
    const explorer = await fetch(`${s.gateway.url}/ipfs/${emptied}`);
    expect(explorer.url).toBe(`${s.gateway.url}/ipfs/${emptied}/_index.html`);
    expect(await (await fetch(`${s.gateway.url}/ipfs/${emptied}/manifest.json`)).json()).toMatchObject({
      total_files: 0,
      files: [],
    });
  });
});
