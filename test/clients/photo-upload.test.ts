import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { nip98Header } from '../helpers/nostr.js';
import { makeSamples, type Samples } from '../drive/media/samples.js';
import { startUploadStation, type UploadStation } from './upload-station.js';

/**
 * UPlanet's `uploadPhotoToIPFS(file)` (earth/common.js, lib_3_content.js), used by the chat, the map and the
 * profile pages: `FormData` with `file` then `npub` (the 64-hex key), `fetch(<api>/api/fileupload, {method:
 * 'POST', body})` and no header of its own (its login is the relay-observed NIP-42 one). From the answer it
 * builds `<gateway>/ipfs/<new_cid>/<last segment of file_path>` and, when `info` is set, loads
 * `<gateway>/ipfs/<info>` for `metadata.description`.
 */
describe('uploadPhotoToIPFS (UPlanet common.js)', () => {
  let s: UploadStation;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  beforeAll(async () => {
    s = await startUploadStation();
    dir = await tempDir('client-photo-');
    samples = await makeSamples(dir.path);
  });
  afterAll(async () => {
    await s?.close();
    await dir?.cleanup();
  });

  /** The page's form; `npubFirst`: the one change this station needs (docs/operations.md, "Compatibility"). */
  function photoForm(bytes: Buffer, name: string, hex: string, npubFirst: boolean): FormData {
    const form = new FormData();
    const file = new File([bytes], name, { type: 'image/jpeg' });
    if (npubFirst) form.append('npub', hex);
    form.append('file', file);
    if (!npubFirst) form.append('npub', hex);
    return form;
  }

  /** What the browser adds: the page's origin (the station serves the page here). */
  const post = (form: FormData, headers: Record<string, string> = {}) =>
    fetch(`${s.api}/api/fileupload`, { method: 'POST', body: form, headers: { origin: s.api, ...headers } });

  /** The page's own reading of the answer. */
  async function imageUrlFrom(answer: Record<string, unknown>) {
    expect(answer.success && answer.new_cid && answer.file_path).toBeTruthy();
    const fileName = String(answer.file_path).split('/').pop();
    return `${s.gateway.url}/ipfs/${String(answer.new_cid)}/${fileName}`;
  }

  it('the built link serves the photo, and info gives its description', async () => {
    const member = await s.member('photo@example.org');
    const bytes = await readFile(samples.jpg);
    const res = await post(photoForm(bytes, 'sunset 1.jpg', member.hex, true));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ fileName: 'sunset 1.jpg', dimensions: '640x480', gifanim_ipfs: null });

    const image = await fetch(await imageUrlFrom(answer));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);

    const info = await fetch(`${s.gateway.url}/ipfs/${String(answer.info)}`);
    expect(info.status).toBe(200);
    const metadata = (await info.json()) as { metadata: { description: string } };
    expect(metadata.metadata.description).toBe('Image, 640x480');
    const thumbnail = await fetch(`${s.gateway.url}/ipfs/${String(answer.thumbnail_ipfs)}`);
    expect(thumbnail.status).toBe(200);
  });

  it('the form exactly as the page orders it (file before npub, no header) from the member’s device', async () => {
    // The owner must be known when the file part starts: the one login made from this device's address stands
    // for it until the npub arrives (which must then be the same key).
    const member = await s.member('late-npub@example.org', '203.0.113.41');
    const bytes = await readFile(samples.jpg);
    const res = await post(photoForm(bytes, 'late.jpg', member.hex, false), {
      'x-forwarded-for': '203.0.113.41',
    });
    expect(res.status).toBe(200);
    expect((await fetch(await imageUrlFrom((await res.json()) as Record<string, unknown>))).status).toBe(200);
    const stranger = await post(photoForm(bytes, 'late.jpg', member.hex, false), {
      'x-forwarded-for': '198.51.100.41',
    });
    expect(stranger.status).toBe(401);
    expect(((await stranger.json()) as { code: string }).code).toBe('AUTH_REQUIRED');
  });

  it('the same order passes when the page signs the request (NIP-98 names the owner up front)', async () => {
    const member = await s.member('signed@example.org');
    const bytes = await readFile(samples.png);
    const authorization = nip98Header(member, `${s.api}/api/fileupload`, 'POST');
    const res = await post(photoForm(bytes, 'signed.png', member.hex, false), { authorization });
    expect(res.status).toBe(200);
    const image = await fetch(await imageUrlFrom((await res.json()) as Record<string, unknown>));
    expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
