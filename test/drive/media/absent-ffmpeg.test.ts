import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../helpers/multipart.js';
import { tempDir } from '../../helpers/temp.js';
import { bytesOf, fetched, fileUpload, mediaStation, type MediaStation } from './harness.js';
import { makeSamples, type Samples } from './samples.js';

const CID = expect.stringMatching(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
const NO_MEDIA = {
  thumbnail_ipfs: null,
  gifanim_ipfs: null,
  dimensions: null,
  duration: null,
  description: null,
};

/** Without ffmpeg (or out of time), the upload still succeeds: the media fields are null, never an error. */
describe('/api/fileupload without ffmpeg / ffprobe', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  let station: MediaStation | null = null;
  beforeAll(async () => {
    dir = await tempDir('media-absent-');
    samples = await makeSamples(dir.path);
  });
  afterEach(async () => {
    await station?.close();
    station = null;
  });
  afterAll(() => dir.cleanup());

  async function uploadVideo(env: Record<string, string>) {
    station = await mediaStation(env);
    const owner = await register(station.t, 'carol@example.org');
    const res = await fileUpload(station.t, owner, 'clip.mp4', await bytesOf(samples.mp4));
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('answers 200 with null media fields when neither binary exists', async () => {
    const body = await uploadVideo({ FFMPEG: '/nonexistent/ffmpeg', FFPROBE: '/nonexistent/ffprobe' });
    expect(body).toMatchObject({ success: true, file_type: 'video', new_cid: CID, info: CID, ...NO_MEDIA });
    // The file is served all the same, and the info document says what is known.
    const served = await fetched(`${station!.gateway.url}/ipfs/${body.new_cid}/clip.mp4`);
    expect(served.body.equals(await bytesOf(samples.mp4))).toBe(true);
    const info = JSON.parse((await fetched(`${station!.gateway.url}/ipfs/${body.info}`)).body.toString());
    expect(info.file.hash).toBe(body.fileHash);
    expect(info.media).toEqual({ type: 'video' });
  });

  it('still probes when only ffmpeg is missing: no thumbnail, no GIF', async () => {
    const body = await uploadVideo({ FFMPEG: '/nonexistent/ffmpeg' });
    expect(body).toMatchObject({
      dimensions: '320x240',
      duration: 2,
      thumbnail_ipfs: null,
      gifanim_ipfs: null,
    });
  });

  it('gives up on the media fields when the time budget runs out, and still answers', async () => {
    // An ffprobe that never answers (a hung network mount, a pathological file).
    const hung = join(dir.path, 'hung-ffprobe');
    await writeFile(hung, '#!/bin/sh\nexec sleep 300\n');
    await chmod(hung, 0o755);
    const body = await uploadVideo({ FFPROBE: hung, MEDIA_TIMEOUT: '1' });
    expect(body).toMatchObject({ success: true, info: CID, ...NO_MEDIA });
  });
});
