import { stat } from 'node:fs/promises';
import { MediaUnreadableError } from './errors.js';
import { inputArgs, type MediaKind } from './input.js';
import type { Budget, MediaTools } from './tools.js';

/** Largest side of a thumbnail (never enlarged), and its JPEG quality (2 best … 31 worst). */
const THUMBNAIL_MAX = 1200;
const JPEG_QUALITY = '4';
/** The animated GIF: this long, from the golden-ratio point of the video, this wide, at this rate. */
const GIF_SECONDS = 1.6;
const GIF_WIDTH = 320;
const GIF_FPS = 10;
/** Output size cap: a runaway encode stops here instead of filling the staging disk. */
const MAX_OUTPUT = '16M';

/** Where the still of a video is taken: 1 s in, or 10 % of a long one, inside a short one. */
export function thumbnailTime(duration: number | null): number {
  if (duration === null) return 0;
  if (duration > 10) return duration * 0.1;
  return Math.min(1, duration / 2);
}

/** Where the GIF starts: at 0.618 of the video, early enough for a whole clip when it is short. */
export function gifStart(duration: number | null): number {
  if (duration === null) return 0;
  return Math.max(0, Math.min(duration * 0.618, duration - GIF_SECONDS));
}

const seconds = (value: number) => value.toFixed(3);

async function written(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  // ffmpeg exits 0 without writing anything when the seek point is past the last frame.
  if (!info || info.size === 0) throw new MediaUnreadableError('no frame was written');
}

/** A JPEG still of an image or a video, no larger than THUMBNAIL_MAX on either side. */
export async function renderThumbnail(
  tools: MediaTools,
  input: { path: string; kind: MediaKind; duration: number | null },
  output: string,
  budget: Budget,
): Promise<void> {
  const seek = input.kind === 'video' ? ['-ss', seconds(thumbnailTime(input.duration))] : [];
  const fit = `scale='min(${THUMBNAIL_MAX},iw)':'min(${THUMBNAIL_MAX},ih)':force_original_aspect_ratio=decrease`;
  const args = ['-nostdin', '-v', 'error', '-y', ...seek, ...(await inputArgs(input.path, input.kind))];
  args.push('-map', '0:v:0', '-frames:v', '1', '-vf', fit, '-c:v', 'mjpeg', '-q:v', JPEG_QUALITY);
  args.push('-fs', MAX_OUTPUT, '-f', 'image2', '-update', '1', `file:${output}`);
  await tools.run('ffmpeg', args, budget);
  await written(output);
}

/** A short looping GIF of a video (one palette per clip: far better colours than the default one). */
export async function renderGif(
  tools: MediaTools,
  input: { path: string; duration: number | null },
  output: string,
  budget: Budget,
): Promise<void> {
  const seek = ['-ss', seconds(gifStart(input.duration)), '-t', seconds(GIF_SECONDS)];
  const filter = `fps=${GIF_FPS},scale='min(${GIF_WIDTH},iw)':-2:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse`;
  const args = ['-nostdin', '-v', 'error', '-y', ...seek, ...(await inputArgs(input.path, 'video'))];
  args.push('-map', '0:v:0', '-an', '-vf', filter, '-loop', '0');
  args.push('-fs', MAX_OUTPUT, '-f', 'gif', `file:${output}`);
  await tools.run('ffmpeg', args, budget);
  await written(output);
}
