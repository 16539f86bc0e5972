import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Small media made by Debian's ffmpeg itself (lavfi test sources): nothing binary is kept in the repo. */
export interface Samples {
  /** 320x240, 2 s, H.264 in MP4. */
  mp4: string;
  /** 320x240, 2 s, VP8 + Opus, written as a browser's MediaRecorder does: no duration in the header. */
  webcam: string;
  /** 0.5 s, 160x120: shorter than the GIF and than the thumbnail's usual 1 s. */
  short: string;
  /** 640x480 PNG and JPEG stills; 2400x1200 PNG (larger than a thumbnail). */
  png: string;
  jpg: string;
  wide: string;
  /** 1.5 s of MP3. */
  mp3: string;
}

const ffmpeg = (args: string[]) => run('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args]);
const testsrc = (size: string, rate = 10) => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`];

export async function makeSamples(dir: string): Promise<Samples> {
  const at = (name: string) => join(dir, name);
  const samples: Samples = {
    mp4: at('clip.mp4'),
    webcam: at('webcam.webm'),
    short: at('short.mp4'),
    png: at('still.png'),
    jpg: at('still.jpg'),
    wide: at('wide.png'),
    mp3: at('tone.mp3'),
  };
  const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
  await Promise.all([
    ffmpeg([...testsrc('320x240'), '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', samples.mp4]),
    ffmpeg([
      ...testsrc('320x240'),
      ...sine,
      '-t',
      '2',
      '-c:v',
      'libvpx',
      '-c:a',
      'libopus',
      '-f',
      'webm',
      '-live',
      '1',
      samples.webcam,
    ]),
    ffmpeg([...testsrc('160x120'), '-t', '0.5', '-pix_fmt', 'yuv420p', samples.short]),
    ffmpeg([...testsrc('640x480', 1), '-frames:v', '1', samples.png]),
    ffmpeg([...testsrc('640x480', 1), '-frames:v', '1', samples.jpg]),
    ffmpeg([...testsrc('2400x1200', 1), '-frames:v', '1', samples.wide]),
    ffmpeg([...sine, '-t', '1.5', samples.mp3]),
  ]);
  return samples;
}

/** What ffprobe says of a rendered file: its codec, size and frame count. */
export async function describeFile(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames',
    '-of',
    'json',
    path,
  ]);
  const stream = (JSON.parse(stdout) as { streams: Record<string, unknown>[] }).streams[0]!;
  return {
    codec: stream.codec_name as string,
    width: stream.width as number,
    height: stream.height as number,
    frames: Number(stream.nb_read_frames),
  };
}
