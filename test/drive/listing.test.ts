import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExplorer } from '../../src/drive/explorer.js';
import type { DriveListing } from '../../src/drive/listing-schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { register, type Owner } from '../helpers/multipart.js';
import { newKey } from '../helpers/nostr.js';
import { collect, ipfsCidOf } from './helpers.js';
import { upload } from './http.js';

/** `GET /api/drive`: the public manifest of a drive and its current root, as the explorer reads it. */
describe('GET /api/drive', () => {
  let t: TestApp;
  let alice: Owner;

  beforeAll(async () => {
    t = await buildTestApp({
      env: { PUBLIC_URL: 'https://station.example/api-prefix', IPFS_GATEWAY: 'http://127.0.0.1:18080' },
    });
    alice = await register(t, 'alice@example.org');
  });
  afterAll(() => t.close());

  const listing = (npub: string) => t.app.inject({ url: `/api/drive?npub=${encodeURIComponent(npub)}` });

  it('answers an empty drive, then the files with the root, the gateway and the API the explorer uses', async () => {
    const empty = await listing(alice.npub);
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('no-cache');
    expect(empty.json()).toMatchObject({ root_cid: null, explorer_url: null, files: [], total_files: 0 });

    expect((await upload(t, alice, 'b.txt', 'bravo')).statusCode).toBe(200);
    const photo = (await upload(t, alice, 'a.png', 'not a png')).json();
    const body = (await listing(alice.hex)).json() as DriveListing;
    expect(body).toEqual({
      generator: 'uplanet-station',
      version: 1,
      owner_hex_pubkey: alice.hex,
      // The links as this client reaches the station: PUBLIC_URL's host, the gateway's port, its scheme.
      my_ipfs_gateway: 'https://station.example:18080',
      api_url: 'https://station.example/api-prefix',
      explorer: '_index.html',
      total_files: 2,
      total_size: 14,
      files: [
        expect.objectContaining({ path: 'Documents/b.txt', name: 'b.txt', category: 'Documents' }),
        {
          path: 'Images/a.png',
          name: 'a.png',
          category: 'Images',
          type: 'image',
          mime_type: 'image/png',
          size: 9,
          sha256: photo.fileHash,
          cid: photo.file_cid,
          ipfs_link: expect.stringMatching(/^Qm\w+\/a\.png$/),
          added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
      root_cid: photo.new_cid,
      explorer_url: `https://station.example:18080/ipfs/${photo.new_cid}/_index.html`,
      updated_at: expect.any(String),
    });
    // Public: no e-mail address anywhere.
    expect(JSON.stringify(body)).not.toContain('alice@example.org');
  });

  it('is exactly the manifest.json of the published root, beside the explorer `ipfs add` agrees with', async () => {
    const body = (await listing(alice.npub)).json() as DriveListing;
    const { root_cid: root, explorer_url: _url, updated_at: _at, ...published } = body;
    const store = t.app.contentStore;
    const bytes = await collect(store.cat(`${root}/manifest.json`));
    // The published manifest keeps the station's own gateway (its root CID must not depend on who asks).
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({
      ...published,
      my_ipfs_gateway: 'http://127.0.0.1:18080',
    });
    // Stored as pages by seq (its CID is not `ipfs add`'s): any UnixFS reader reads it whole.
    const entries = await store.ls(root!);
    const manifest = entries.find((e) => e.name === 'manifest.json')!;
    expect(await store.stat(manifest.cid)).toMatchObject({ type: 'file', size: bytes.length });
    const dir = await mkdtemp(join(tmpdir(), 'drive-listing-'));
    try {
      const explorer = await loadExplorer();
      await writeFile(join(dir, '_index.html'), explorer.bytes);
      expect(explorer.cid).toBe(await ipfsCidOf(join(dir, '_index.html')));
      expect(entries.find((e) => e.name === '_index.html')?.cid).toBe(explorer.cid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed key (400) and answers 404 {detail, code} for a key without a drive', async () => {
    const bad = await listing('npub1nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_NPUB', detail: expect.any(String) });
    const unknown = await listing(newKey().npub);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'UNKNOWN_USER', detail: expect.any(String) });
    expect((await t.app.inject({ url: '/api/drive' })).statusCode).toBe(400);
  });

  it('is in the OpenAPI document with its response schema, and /drive is a page', async () => {
    const spec = (await t.app.inject({ url: '/docs/json' })).json();
    const operation = spec.paths['/api/drive'].get;
    expect(operation.tags).toContain('drive');
    const schema = operation.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['files', 'root_cid', 'api_url', 'my_ipfs_gateway', 'owner_hex_pubkey']),
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '404']));
    expect(Object.keys(spec.paths)).toContain('/drive');
    const page = await t.app.inject({ url: '/drive?lang=en' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/assets/drive.js');
  });
});
