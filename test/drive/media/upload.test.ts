import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, type Owner } from '../../helpers/multipart.js';
import { tempDir } from '../../helpers/temp.js';
import { postJson } from '../http.js';
import { bytesOf, fetched, fileUpload, mediaStation, type MediaStation } from './harness.js';
import { describeFile, makeSamples, type Samples } from './samples.js';

const CID = expect.stringMatching(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
const LOCAL_ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);

describe('/api/fileupload: media fields', () => {
  let station: MediaStation;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  let alice: Owner;
  const gatewayGet = (path: string) => fetched(`${station.gateway.url}/ipfs/${path}`);
  const info = async (cid: string) => JSON.parse((await gatewayGet(cid)).body.toString('utf8'));

  beforeAll(async () => {
    station = await mediaStation();
    dir = await tempDir('media-upload-');
    samples = await makeSamples(dir.path);
    alice = await register(station.t, 'alice@example.org');
  });
  afterAll(async () => {
    await station.close();
    await dir.cleanup();
  });

  it('answers an image with its dimensions, a JPEG thumbnail and an info document', async () => {
    const bytes = await bytesOf(samples.png);
    const res = await fileUpload(station.t, alice, 'still.png', bytes);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      message: 'File saved as Images/still.png.',
      file_path: 'APP/uDRIVE/Images/still.png',
      file_type: 'image',
      target_directory: join(alice.dir, 'APP', 'uDRIVE', 'Images'),
      new_cid: CID,
      drive_cid: CID,
      file_cid: CID,
      fileName: 'still.png',
      fileHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      mimeType: 'image/png',
      size: bytes.length,
      timestamp: LOCAL_ISO,
      auth_verified: true,
      info: CID,
      thumbnail_ipfs: CID,
      gifanim_ipfs: null,
      dimensions: '640x480',
      duration: null,
      description: 'Image, 640x480',
    });
    const thumbnail = await gatewayGet(body.thumbnail_ipfs);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await info(body.info)).toEqual({
      protocol: { name: 'UPlanet file contract', version: '2.1.0' },
      file: {
        name: 'still.png',
        size: bytes.length,
        type: 'image/png',
        hash: body.fileHash,
        sha256: body.fileHash,
      },
      ipfs: { cid: body.new_cid, cidirect: body.file_cid, url: `/ipfs/${body.new_cid}/still.png` },
      image: { dimensions: '640x480', thumbnail: body.thumbnail_ipfs },
      metadata: { type: 'image', description: 'Image, 640x480' },
      provenance: { uploader: alice.hex },
    });
  });

  it('answers a video with duration, dimensions, a still and an animated GIF, all fetchable', async () => {
    const body = (await fileUpload(station.t, alice, 'clip.mp4', await bytesOf(samples.mp4))).json();
    expect(body).toMatchObject({
      file_type: 'video',
      mimeType: 'video/mp4',
      dimensions: '320x240',
      duration: 2,
      thumbnail_ipfs: CID,
      gifanim_ipfs: CID,
      description: 'Video, 2 s, 320x240, h264',
    });
    const still = await gatewayGet(body.thumbnail_ipfs);
    const gif = await gatewayGet(body.gifanim_ipfs);
    expect([still.status, gif.status]).toEqual([200, 200]);
    expect(gif.body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect((await info(body.info)).media).toEqual({
      type: 'video',
      duration: 2,
      dimensions: { width: 320, height: 240, aspectRatio: '4:3' },
      codecs: { video: 'h264' },
      thumbnails: { static: body.thumbnail_ipfs, animated: body.gifanim_ipfs },
    });
  });

  it('answers audio with its duration only, and takes the description the client sent', async () => {
    const res = await fileUpload(station.t, alice, 'tone.mp3', await bytesOf(samples.mp3), {
      description: '  A440 for tuning  ',
    });
    const body = res.json();
    expect(body).toMatchObject({
      file_type: 'audio',
      duration: 1,
      dimensions: null,
      thumbnail_ipfs: null,
      gifanim_ipfs: null,
      info: CID,
      description: 'A440 for tuning',
    });
    expect((await info(body.info)).metadata).toEqual({ type: 'audio', description: 'A440 for tuning' });
  });

  it('gives a document an info document and no media fields', async () => {
    const body = (await fileUpload(station.t, alice, 'notes.pdf', '%PDF-1.4 not much')).json();
    expect(body).toMatchObject({ file_type: 'document', info: CID, dimensions: null, duration: null });
    expect(body).toMatchObject({ thumbnail_ipfs: null, gifanim_ipfs: null, description: null });
  });

  it('keeps the media out of the drive: recorded in the index, kept with the file, released with it', async () => {
    const body = (await fileUpload(station.t, alice, 'kept.mp4', await bytesOf(samples.mp4))).json();
    const driveDir = join(alice.dir, 'APP', 'uDRIVE');
    const { reads, db } = station.t.app.driveServices;
    // Recorded under the file's wrapper (the answer's new_cid), in the index: nothing in the drive's folder.
    const record = reads.media(alice.hex, body.new_cid);
    expect(record).toEqual({
      path: 'Videos/kept.mp4',
      bundle: CID,
      info: body.info,
      thumbnail: body.thumbnail_ipfs,
      gifanim: body.gifanim_ipfs,
    });
    const bundle = await station.t.app.contentStore.ls(record!.bundle);
    expect(bundle.map((e) => e.name)).toEqual(['animation.gif', 'info.json', 'thumbnail.jpg']);
    expect(db.pinRefs.get(record!.bundle)).toBe(1);
    // Not drive entries: the manifest and the published folders list the video only.
    const manifest = await station.t.app.drive.list(alice);
    const paths: string[] = manifest.files.map((f: { path: string }) => f.path);
    expect(paths.every((path) => /^(Images|Music|Videos|Documents)\/[^/.]/.test(path))).toBe(true);
    expect((await readdir(driveDir)).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(await readdir(join(driveDir, 'Videos'))).toEqual(['clip.mp4', 'kept.mp4']);

    const deleted = await postJson(station.t, alice, '/api/delete', { file_path: 'Videos/kept.mp4' });
    expect(deleted.statusCode).toBe(200);
    // Gone with the file: no longer kept, only readable for a while (as a superseded root).
    expect(reads.media(alice.hex, body.new_cid)).toBeUndefined();
    expect(db.pinRefs.get(record!.bundle)).toBeUndefined();
    expect(db.roots.get(record!.bundle)).toEqual(expect.any(Number));
  });

  it('leaves nothing in the staging area', async () => {
    expect(await readdir(join(station.t.config.dataRoot, '.drive-staging'))).toEqual([]);
  });

  it('renders a still that ffprobe reads back as a JPEG of the video', async () => {
    const body = (await fileUpload(station.t, alice, 'again.mp4', await bytesOf(samples.mp4))).json();
    const path = join(dir.path, 'fetched.jpg');
    await writeFile(path, (await gatewayGet(body.thumbnail_ipfs)).body);
    expect(await describeFile(path)).toMatchObject({ codec: 'mjpeg', width: 320, height: 240 });
  });
});
