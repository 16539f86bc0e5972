import { MediaUnreadableError } from './errors.js';
import { inputArgs, type MediaKind } from './input.js';
import type { Budget, MediaTools } from './tools.js';

export interface MediaProbe {
  width: number | null;
  height: number | null;
  /** Seconds; null for images, and when neither the container nor the packets tell. */
  duration: number | null;
  videoCodecs: string[];
  audioCodecs: string[];
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  disposition?: { attached_pic?: number };
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { duration?: string };
}

function seconds(value: string | undefined): number | null {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : null;
}

/** Width, height, duration and codecs of an image, video or audio file (ffprobe, JSON output). */
export async function probeMedia(
  tools: MediaTools,
  path: string,
  kind: MediaKind,
  budget: Budget,
): Promise<MediaProbe> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'];
  const output = await tools.run('ffprobe', [...args, ...(await inputArgs(path, kind))], budget);
  let parsed: ProbeOutput;
  try {
    parsed = JSON.parse(output) as ProbeOutput;
  } catch {
    throw new MediaUnreadableError('ffprobe output is not JSON');
  }
  const streams = parsed.streams ?? [];
  // Cover art in an audio file is a one-frame "video" stream: not what the file is.
  const pictures = streams.filter((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const sounds = streams.filter((s) => s.codec_type === 'audio');
  if (pictures.length === 0 && sounds.length === 0) throw new MediaUnreadableError('no stream found');
  const picture = kind === 'audio' ? undefined : pictures[0];
  let duration = kind === 'image' ? null : seconds(parsed.format?.duration);
  // A browser's MediaRecorder writes WebM without a duration: the packets still say where it ends.
  if (kind !== 'image' && duration === null)
    duration = await lastPacketEnd(tools, path, kind, picture ? 'v:0' : 'a:0', budget).catch(() => null);
  return {
    width: picture?.width || null,
    height: picture?.height || null,
    duration,
    videoCodecs: kind === 'audio' ? [] : names(pictures),
    audioCodecs: names(sounds),
  };
}

function names(streams: ProbeStream[]): string[] {
  return [...new Set(streams.map((s) => s.codec_name).filter((n): n is string => !!n))];
}

/** The end time of the last packet of one stream, read as it streams (one short line per packet). */
async function lastPacketEnd(
  tools: MediaTools,
  path: string,
  kind: MediaKind,
  stream: string,
  budget: Budget,
): Promise<number | null> {
  let end = 0;
  let partial = '';
  const take = (line: string) => {
    const [pts, length] = line.split(',').map(Number);
    if (Number.isFinite(pts)) end = Math.max(end, pts! + (Number.isFinite(length) ? length! : 0));
  };
  const args = ['-v', 'error', '-select_streams', stream];
  args.push('-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0');
  await tools.run('ffprobe', [...args, ...(await inputArgs(path, kind))], budget, (chunk) => {
    const lines = (partial + chunk.toString('latin1')).split('\n');
    partial = (lines.pop() ?? '').slice(-256);
    lines.forEach(take);
  });
  take(partial);
  return end > 0 ? end : null;
}
