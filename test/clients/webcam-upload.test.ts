import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { makeSamples, type Samples } from '../drive/media/samples.js';
import { startUploadStation, type UploadStation } from './upload-station.js';

/**
 * UPassport's webcam page (templates/webcam.html, "publish"): the MediaRecorder blob as
 * `new File([blob], 'webcam_<ms>.webm', {type: blob.type || 'video/webm'})`, `FormData` with `file` then
 * `npub`, `fetch('/api/fileupload', {method: 'POST', body})`. It stops unless `success` and `new_cid` are
 * set, and throws without `info` or `fileHash`; then it posts `/webcam` with `ipfs_cid` = new_cid,
 * `thumbnail_ipfs`, `gifanim_ipfs`, `info_cid`, `file_hash`, `mime_type`, `duration`, `video_dimensions`.
 */
describe('webcam page upload (UPassport webcam.html)', () => {
  let s: UploadStation;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  beforeAll(async () => {
    s = await startUploadStation();
    dir = await tempDir('client-webcam-');
    samples = await makeSamples(dir.path);
  });
  afterAll(async () => {
    await s?.close();
    await dir?.cleanup();
  });

  /** The upload form; `npubFirst`: the one change this station needs (docs/operations.md, "Compatibility"). */
  function recording(bytes: Buffer, name: string, type: string, hex: string, npubFirst = true): FormData {
    const form = new FormData();
    if (npubFirst) form.append('npub', hex);
    form.append('file', new File([bytes], name, { type }));
    if (!npubFirst) form.append('npub', hex);
    return form;
  }

  const upload = (form: FormData, headers: Record<string, string> = {}) =>
    fetch(`${s.api}/api/fileupload`, { method: 'POST', body: form, headers: { origin: s.api, ...headers } });

  /** The `/webcam` form the page builds from the answer, as far as the answer feeds it. */
  function publishForm(answer: Record<string, unknown>): Record<string, string> {
    if (!answer.success || !answer.new_cid) throw new Error('IPFS upload failed - no CID returned');
    if (!answer.info) throw new Error('Missing info_cid from upload result');
    if (!answer.fileHash) throw new Error('Missing file_hash from upload result');
    const form: Record<string, string> = { ipfs_cid: String(answer.new_cid) };
    if (answer.thumbnail_ipfs) form.thumbnail_ipfs = String(answer.thumbnail_ipfs);
    if (answer.gifanim_ipfs) form.gifanim_ipfs = String(answer.gifanim_ipfs);
    form.info_cid = String(answer.info);
    form.file_hash = String(answer.fileHash);
    if (answer.mimeType) form.mime_type = String(answer.mimeType);
    if (answer.duration !== undefined && answer.duration !== null) form.duration = String(answer.duration);
    if (answer.dimensions) form.video_dimensions = String(answer.dimensions);
    return form;
  }

  const get = async (path: string) => {
    const res = await fetch(`${s.gateway.url}/ipfs/${path}`);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it('a MediaRecorder WebM: duration, dimensions, still and GIF all there and fetchable', async () => {
    const member = await s.member('webcam@example.org');
    const bytes = await readFile(samples.webcam);
    const name = 'webcam_1735689600000.webm';
    const res = await upload(recording(bytes, name, 'video/webm', member.hex));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, unknown>;
    const form = publishForm(answer);
    expect(form).toEqual({
      ipfs_cid: answer.new_cid,
      thumbnail_ipfs: expect.stringMatching(/^Qm/),
      gifanim_ipfs: expect.stringMatching(/^Qm/),
      info_cid: expect.stringMatching(/^Qm/),
      file_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      mime_type: 'video/webm',
      duration: '2',
      video_dimensions: '320x240',
    });
    // `ipfs_cid` is what the page publishes: the recording is at <ipfs_cid>/<name>.
    const video = await get(`${form.ipfs_cid}/${name}`);
    expect(video.status).toBe(200);
    expect(video.body.equals(bytes)).toBe(true);
    const still = await get(form.thumbnail_ipfs!);
    expect(still.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const gif = await get(form.gifanim_ipfs!);
    expect(gif.body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    const info = JSON.parse((await get(form.info_cid!)).body.toString('utf8'));
    expect(info).toMatchObject({
      protocol: { version: expect.stringMatching(/^2\./) },
      file: { hash: form.file_hash, name },
      media: {
        type: 'video',
        dimensions: { width: 320, height: 240 },
        thumbnails: { static: form.thumbnail_ipfs, animated: form.gifanim_ipfs },
      },
    });
    expect(info.media.duration).toBeCloseTo(2, 0);
  });

  it('an MP4 recording (Safari records MP4) gets the same fields', async () => {
    const member = await s.member('safari@example.org');
    const res = await upload(recording(await readFile(samples.mp4), 'webcam_1.mp4', 'video/mp4', member.hex));
    const form = publishForm((await res.json()) as Record<string, unknown>);
    expect(form).toMatchObject({ mime_type: 'video/mp4', duration: '2', video_dimensions: '320x240' });
    expect((await get(form.gifanim_ipfs!)).status).toBe(200);
  });

  it('the form exactly as the page orders it (file before npub, no header) from the member’s device', async () => {
    const member = await s.member('webcam-late@example.org', '203.0.113.42');
    const form = recording(await readFile(samples.webcam), 'webcam_2.webm', 'video/webm', member.hex, false);
    const res = await upload(form, { 'x-forwarded-for': '203.0.113.42' });
    expect(res.status).toBe(200);
    expect(publishForm((await res.json()) as Record<string, unknown>).gifanim_ipfs).toBeTruthy();
  });
});
