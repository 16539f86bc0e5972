import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaUnreadableError } from '../../../src/drive/media/errors.js';
import { gifStart, renderGif, renderThumbnail, thumbnailTime } from '../../../src/drive/media/thumbnail.js';
import { Budget, MediaTools } from '../../../src/drive/media/tools.js';
import { tempDir } from '../../helpers/temp.js';
import { describeFile, makeSamples, type Samples } from './samples.js';

const tools = new MediaTools({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, 2);
const roomy = () => new Budget(120_000);

describe('thumbnails and animated GIFs (ffmpeg)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  let n = 0;
  const out = (extension: string) => join(dir.path, `out-${++n}.${extension}`);
  beforeAll(async () => {
    dir = await tempDir('media-thumb-');
    samples = await makeSamples(dir.path);
  });
  afterAll(() => dir.cleanup());

  it('takes the still of a video 1 s in, 10 % into a long one, halfway into a short one', () => {
    expect(thumbnailTime(2)).toBe(1);
    expect(thumbnailTime(600)).toBe(60);
    expect(thumbnailTime(0.5)).toBe(0.25);
    expect(thumbnailTime(null)).toBe(0);
  });

  it('starts the GIF at the golden-ratio point, early enough for a whole clip', () => {
    expect(gifStart(100)).toBeCloseTo(61.8);
    expect(gifStart(2)).toBeCloseTo(0.4);
    expect(gifStart(1)).toBe(0);
    expect(gifStart(null)).toBe(0);
  });

  it('renders a JPEG still of a video at its size', async () => {
    const path = out('jpg');
    await renderThumbnail(tools, { path: samples.mp4, kind: 'video', duration: 2 }, path, roomy());
    expect(await describeFile(path)).toMatchObject({ codec: 'mjpeg', width: 320, height: 240 });
  });

  it('renders a JPEG of an image, never larger than 1200 px, proportions kept', async () => {
    const small = out('jpg');
    await renderThumbnail(tools, { path: samples.png, kind: 'image', duration: null }, small, roomy());
    expect(await describeFile(small)).toMatchObject({ codec: 'mjpeg', width: 640, height: 480 });
    const wide = out('jpg');
    await renderThumbnail(tools, { path: samples.wide, kind: 'image', duration: null }, wide, roomy());
    expect(await describeFile(wide)).toMatchObject({ codec: 'mjpeg', width: 1200, height: 600 });
  });

  it('renders a looping GIF of 1.6 s at 10 frames a second, 320 px wide at most', async () => {
    const path = out('gif');
    await renderGif(tools, { path: samples.mp4, duration: 2 }, path, roomy());
    expect(await describeFile(path)).toEqual({ codec: 'gif', width: 320, height: 240, frames: 16 });
  });

  it('handles a clip shorter than the GIF and than 1 s, and one without a known duration', async () => {
    const still = out('jpg');
    await renderThumbnail(tools, { path: samples.short, kind: 'video', duration: 0.5 }, still, roomy());
    expect((await describeFile(still)).codec).toBe('mjpeg');
    const gif = out('gif');
    await renderGif(tools, { path: samples.short, duration: 0.5 }, gif, roomy());
    expect(await describeFile(gif)).toMatchObject({ codec: 'gif', width: 160, height: 120 });
    const unknown = out('gif');
    await renderGif(tools, { path: samples.webcam, duration: null }, unknown, roomy());
    expect((await describeFile(unknown)).codec).toBe('gif');
  });

  it('says so when the seek point has no frame, instead of handing back an empty file', async () => {
    const path = out('jpg');
    const late = renderThumbnail(tools, { path: samples.mp4, kind: 'video', duration: 20 }, path, roomy());
    await expect(late).rejects.toBeInstanceOf(MediaUnreadableError);
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
