import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../../src/drive/store/embedded.js';
import { parseRange } from '../../../src/drive/store/http-range.js';
import { collect, once_, pseudoRandom } from '../helpers.js';
import { serveEmbedded, type ServedStore } from './open-store.js';

const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('read-only gateway over the embedded store', () => {
  let served: ServedStore;
  let store: EmbeddedStore;
  let big: Buffer;
  let bigCid: string;
  let pngCid: string;
  let folderCid: string;

  beforeAll(async () => {
    served = await serveEmbedded('gateway-');
    ({ store } = served);
    big = await collect(pseudoRandom(3 * 1024 * 1024 + 123, 'gateway'));
    bigCid = (await store.add(once_(big))).cid;
    const png = await store.add(once_(Buffer.concat([PNG_HEADER, Buffer.alloc(100)])));
    pngCid = png.cid;
    const text = await store.add(once_(Buffer.from('bonjour\n')));
    folderCid = await served.folder([
      { name: 'été <b>.jpg', cid: png.cid, dagSize: png.dagSize },
      { name: 'notes.txt', cid: text.cid, dagSize: text.dagSize },
    ]);
  });
  afterAll(() => served.close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    served.get(path, headers, method);

  it('serves a file whole, streamed, with its CID as ETag and a sniffed type for a bare CID', async () => {
    const response = await get(`/ipfs/${bigCid}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(big.length));
    expect(response.headers.get('etag')).toBe(`"${bigCid}"`);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
    expect((await get(`/ipfs/${pngCid}`)).headers.get('content-type')).toBe('image/png');
    expect((await get(`/ipfs/${bigCid}`, { 'if-none-match': `"${bigCid}"` })).status).toBe(304);
  });

  it('answers Range requests with 206 and exact bytes, 416 past the end', async () => {
    const middle = await get(`/ipfs/${bigCid}`, { range: 'bytes=262140-262150' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 262140-262150/${big.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(big.subarray(262140, 262151))).toBe(true);
    const tail = await get(`/ipfs/${bigCid}`, { range: 'bytes=-100' });
    expect(Buffer.from(await tail.arrayBuffer()).equals(big.subarray(big.length - 100))).toBe(true);
    const open = await get(`/ipfs/${bigCid}`, { range: `bytes=${big.length - 5}-` });
    expect(open.headers.get('content-length')).toBe('5');
    await open.arrayBuffer();
    const past = await get(`/ipfs/${bigCid}`, { range: `bytes=${big.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${big.length}`);
  });

  it('serves /ipfs/<dir>/<name> with the type of the name, and lists directories', async () => {
    const photo = await get(`/ipfs/${folderCid}/${encodeURIComponent('été <b>.jpg')}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect(photo.headers.get('x-ipfs-path')).toBe(`/ipfs/${folderCid}/${encodeURIComponent('été <b>.jpg')}`);
    await photo.arrayBuffer();
    const notes = await get(`/ipfs/${folderCid}/notes.txt`);
    expect(notes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await notes.text()).toBe('bonjour\n');
    const listing = await get(`/ipfs/${folderCid}`);
    expect(listing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await listing.text();
    expect(html).toContain('été &lt;b&gt;.jpg');
    expect(html).not.toContain('<b>');
    const head = await get(`/ipfs/${folderCid}/notes.txt`, {}, 'HEAD');
    expect(head.headers.get('content-length')).toBe('8');
    expect(await head.text()).toBe('');
  });

  it('answers errors as {detail, code}: unknown name 404, bad CID 400, other paths 404, writes 405', async () => {
    const missing = await get(`/ipfs/${folderCid}/nope.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'CONTENT_NOT_FOUND' });
    expect((await get('/ipfs/not-a-cid')).status).toBe(400);
    expect((await get('/ipns/example.org')).status).toBe(404);
    const post = await get(`/ipfs/${bigCid}`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('parses Range headers by RFC 9110', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBeNull();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
  });
});
