import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { register, type Owner } from '../../helpers/multipart.js';
import { tempDir } from '../../helpers/temp.js';
import { upload } from '../http.js';
import { collect, ipfsCidOf, pseudoRandom } from '../helpers.js';
import { startFakeKubo, type FakeKubo } from '../store/fake-kubo.js';
import { fetched, fileUpload, mediaStation, type MediaStation } from './harness.js';

/** What `ipfs add -w <file>` prints last, computed by ipfs-unixfs-importer's own directory builder. */
async function addWrappedCid(name: string, bytes: Buffer): Promise<string> {
  const sink = { put: async (cid: CID) => cid };
  let wrapper = '';
  const options = { profile: 'unixfs-v0-2015' as const, wrapWithDirectory: true };
  for await (const entry of importer([{ path: name, content: bytes }], sink, options))
    if (entry.path === '') wrapper = entry.cid.toString();
  return wrapper;
}

describe('/api/fileupload: new_cid is the `ipfs add -w` directory of the file', () => {
  let station: MediaStation;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let alice: Owner;
  // Several chunks (256 KiB each): the wrapper's link size is the file's whole DAG, not its byte count.
  let bytes: Buffer;
  beforeAll(async () => {
    station = await mediaStation();
    dir = await tempDir('media-wrap-');
    alice = await register(station.t, 'alice@example.org');
    bytes = await collect(pseudoRandom(700_000, 'wrap'));
  });
  afterAll(async () => {
    await station.close();
    await dir.cleanup();
  });

  it('equals the CID Kubo gives, and the gateway serves <new_cid>/<fileName>', async () => {
    const name = 'été 2024.txt';
    const res = await fileUpload(station.t, alice, name, bytes);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.new_cid).toBe(await addWrappedCid(name, bytes));
    const copy = join(dir.path, 'copy');
    await writeFile(copy, bytes);
    expect(body.file_cid).toBe(await ipfsCidOf(copy));
    expect(body.drive_cid).toBe((await station.t.app.drive.list(alice)).root_cid);
    expect(body.drive_cid).not.toBe(body.new_cid);

    const file = await fetched(`${station.gateway.url}/ipfs/${body.new_cid}/${encodeURIComponent(name)}`);
    expect(file.status).toBe(200);
    expect(file.body.equals(bytes)).toBe(true);
    // The directory holds that one file and nothing else.
    const listing = await station.t.app.contentStore.ls(body.new_cid);
    expect(listing.map((e) => [e.name, e.cid, e.type])).toEqual([[name, body.file_cid, 'file']]);
  });

  it('keeps /api/upload as it was: new_cid is the drive root, no drive_cid', async () => {
    const res = (await upload(station.t, alice, 'notes.txt', 'plain')).json();
    expect(res.new_cid).toBe((await station.t.app.drive.list(alice)).root_cid);
    expect(res).not.toHaveProperty('drive_cid');
    expect(res).not.toHaveProperty('info');
  });

  it('names the file as the drive stored it when the name was taken', async () => {
    const first = (await fileUpload(station.t, alice, 'same.txt', 'one')).json();
    const second = (await fileUpload(station.t, alice, 'same.txt', 'two')).json();
    expect(second.fileName).toBe('same (1).txt');
    expect(second.new_cid).toBe(await addWrappedCid('same (1).txt', Buffer.from('two')));
    expect(second.new_cid).not.toBe(first.new_cid);
    const served = await fetched(`${station.gateway.url}/ipfs/${second.new_cid}/same (1).txt`);
    expect(served.body.toString()).toBe('two');
  });
});

describe('/api/fileupload on Kubo (its RPC wire format)', () => {
  let kubo: FakeKubo;
  let t: TestApp;
  beforeAll(async () => {
    kubo = await startFakeKubo();
    t = await buildTestApp({ env: { IPFS_API: kubo.url } });
  });
  afterAll(async () => {
    await t.close();
    await kubo.close();
  });

  it('gives the same wrapper, pinned, resolving to the file; no extra RPC is needed', async () => {
    const bob = await register(t, 'bob@example.org');
    const bytes = Buffer.from('kubo bytes\n');
    const body = (await fileUpload(t, bob, 'k.txt', bytes)).json();
    expect(body.new_cid).toBe(await addWrappedCid('k.txt', bytes));
    expect((await collect(t.app.contentStore.cat(`${body.new_cid}/k.txt`))).equals(bytes)).toBe(true);
    expect(await t.app.contentStore.pins()).toEqual(expect.arrayContaining([body.new_cid, body.drive_cid]));
    // The wrapper is a block the station encodes itself: Kubo is never asked to wrap (`add -w`).
    expect(kubo.requests.some((r) => r.path === 'block/put')).toBe(true);
    expect(kubo.requests.filter((r) => r.params.has('wrap-with-directory'))).toEqual([]);
  });
});
