import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MediaTimeoutError,
  MediaToolFailedError,
  MediaToolMissingError,
  MediaUnreadableError,
} from '../../../src/drive/media/errors.js';
import { probeMedia } from '../../../src/drive/media/probe.js';
import { Budget, MediaTools } from '../../../src/drive/media/tools.js';
import { waitFor } from '../../helpers/relay.js';
import { tempDir } from '../../helpers/temp.js';
import { makeSamples, type Samples } from './samples.js';

const execFileAsync = promisify(execFile);
const tools = new MediaTools({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, 2);
const roomy = () => new Budget(120_000);

describe('probeMedia (ffprobe)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let samples: Samples;
  beforeAll(async () => {
    dir = await tempDir('media-probe-');
    samples = await makeSamples(dir.path);
  });
  afterAll(() => dir.cleanup());

  it('reads the size, duration and codecs of a video', async () => {
    expect(await probeMedia(tools, samples.mp4, 'video', roomy())).toEqual({
      width: 320,
      height: 240,
      duration: 2,
      videoCodecs: ['h264'],
      audioCodecs: [],
    });
  });

  it('finds the duration of a MediaRecorder WebM in its packets (the header has none)', async () => {
    const probe = await probeMedia(tools, samples.webcam, 'video', roomy());
    expect(probe).toMatchObject({ width: 320, height: 240, videoCodecs: ['vp8'], audioCodecs: ['opus'] });
    expect(probe.duration).toBeCloseTo(2, 0);
  });

  it('reads images by their content, whatever their name says', async () => {
    expect(await probeMedia(tools, samples.png, 'image', roomy())).toMatchObject({
      width: 640,
      height: 480,
      duration: null,
    });
    // ffmpeg's own choice for `.jpg` reads `%d` as a sequence pattern: this name would find nothing.
    const patterned = join(dir.path, 'photo%d.jpg');
    await copyFile(samples.jpg, patterned);
    expect(await probeMedia(tools, patterned, 'image', roomy())).toMatchObject({ width: 640, height: 480 });
  });

  it('reads the duration of audio, without dimensions', async () => {
    const probe = await probeMedia(tools, samples.mp3, 'audio', roomy());
    expect(probe).toMatchObject({ width: null, height: null, videoCodecs: [], audioCodecs: ['mp3'] });
    expect(probe.duration).toBeGreaterThan(1.4);
  });

  it('never follows a playlist hidden in an upload (HLS named .mp4)', async () => {
    // Another file on the station, in a format ffmpeg plays: the playlist would make it this upload's frames.
    const elsewhere = join(dir.path, 'someone-else.ts');
    await execFileAsync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      samples.mp4,
      '-c',
      'copy',
      '-f',
      'mpegts',
      elsewhere,
    ]);
    const playlist = join(dir.path, 'trap.mp4');
    await writeFile(
      playlist,
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile:${elsewhere}\n#EXT-X-ENDLIST\n`,
    );
    await expect(probeMedia(tools, playlist, 'video', roomy())).rejects.toBeInstanceOf(MediaToolFailedError);
  });

  it('refuses what is not an image it reads (SVG, text)', async () => {
    const svg = join(dir.path, 'drawing.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(probeMedia(tools, svg, 'image', roomy())).rejects.toBeInstanceOf(MediaUnreadableError);
  });

  it('reports a missing binary as such', async () => {
    const absent = new MediaTools({ ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' }, 1);
    await expect(probeMedia(absent, samples.mp4, 'video', roomy())).rejects.toBeInstanceOf(
      MediaToolMissingError,
    );
  });

  it('starts nothing once the budget is spent', async () => {
    await expect(probeMedia(tools, samples.mp4, 'video', new Budget(0))).rejects.toBeInstanceOf(
      MediaTimeoutError,
    );
  });

  it('stops the whole process group of a run that outlives the budget', async () => {
    // A stand-in ffprobe that leaves a child behind, as a wrapper script would.
    const fake = join(dir.path, 'slow-ffprobe');
    const pids = join(dir.path, 'pids');
    await writeFile(fake, `#!/bin/sh\nsleep 300 &\necho $! > '${pids}'\nwait\n`);
    await chmod(fake, 0o755);
    const slow = new MediaTools({ ffmpeg: fake, ffprobe: fake }, 1);
    const probing = probeMedia(slow, samples.mp4, 'video', new Budget(1_000));
    await expect(probing).rejects.toBeInstanceOf(MediaTimeoutError);
    await waitFor(async () => (await readFile(pids, 'utf8').catch(() => '')).trim() !== '');
    const child = Number((await readFile(pids, 'utf8')).trim());
    await waitFor(() => !alive(child));
  });
});

/** Running, not a zombie waiting for a reaper. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
