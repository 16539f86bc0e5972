import { ConfigError, integer, raw, type Env } from './parse.js';

/** The media fields of `/api/fileupload` (probe, thumbnail, animated GIF), made with Debian's ffmpeg. */
export interface MediaConfig {
  /** Command or absolute path; a bare name is looked up on PATH. Absent → the media fields are null. */
  ffmpeg: string;
  ffprobe: string;
  /** Time one upload may spend on its media fields, queueing included; after it they are null. */
  timeoutMs: number;
  /** ffmpeg / ffprobe processes running at once in this process (they are CPU-heavy). */
  concurrency: number;
}

/** A bare command name (looked up on PATH) or an absolute path; anything else would depend on the cwd. */
function command(env: Env, name: string, fallback: string): string {
  const value = raw(env, name) ?? fallback;
  if (!value.startsWith('/') && !/^[A-Za-z0-9._+-]+$/.test(value))
    throw new ConfigError(name, `"${value}" must be a command name or an absolute path`);
  return value;
}

export function mediaConfig(env: Env): MediaConfig {
  return {
    ffmpeg: command(env, 'FFMPEG', 'ffmpeg'),
    ffprobe: command(env, 'FFPROBE', 'ffprobe'),
    timeoutMs: integer(env, 'MEDIA_TIMEOUT', 30, 1, 3_600) * 1000,
    concurrency: integer(env, 'MEDIA_CONCURRENCY', 2, 1, 32),
  };
}
