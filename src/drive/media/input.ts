import { open } from 'node:fs/promises';
import { sniffContentType } from '../store/content-type.js';
import { MediaUnreadableError } from './errors.js';

export type MediaKind = 'image' | 'video' | 'audio';

/**
 * Demuxers ffmpeg may use on an uploaded video or audio file. Without a list it also reads playlists (HLS,
 * concat, ffconcat), which fetch URLs or other local files named inside the upload: a file called `a.mp4`
 * holding an HLS playlist could put `/etc/passwd` or an intranet page into a public thumbnail.
 */
const AV_DEMUXERS = [
  'mov',
  'matroska',
  'avi',
  'mp3',
  'ogg',
  'flac',
  'wav',
  'aac',
  'flv',
  'asf',
  'mpegts',
  'mpeg',
].join(',');

/**
 * Images get their demuxer from their first bytes: ffmpeg's own choice for `.jpg` is `image2`, which reads
 * `%d` in a file name as a sequence pattern. SVG is left out (librsvg would follow references in it).
 */
const IMAGE_DEMUXERS: Record<string, string> = {
  'image/jpeg': 'jpeg_pipe',
  'image/png': 'png_pipe',
  'image/gif': 'gif',
  'image/webp': 'webp_pipe',
};

async function firstBytes(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function imageDemuxer(path: string): Promise<string> {
  const head = await firstBytes(path);
  if (head[0] === 0x42 && head[1] === 0x4d) return 'bmp_pipe';
  const demuxer = IMAGE_DEMUXERS[sniffContentType(head)];
  if (!demuxer) throw new MediaUnreadableError('not an image format the station reads');
  return demuxer;
}

/** ffmpeg / ffprobe options that open `path` (absolute) safely: local file only, known demuxers only. */
export async function inputArgs(path: string, kind: MediaKind): Promise<string[]> {
  const format = kind === 'image' ? ['-f', await imageDemuxer(path)] : ['-format_whitelist', AV_DEMUXERS];
  // `file:` keeps a name such as `concat:…` or `subfile,…` from being read as another protocol.
  return ['-protocol_whitelist', 'file', ...format, '-i', `file:${path}`];
}
