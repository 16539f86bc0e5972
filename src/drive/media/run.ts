import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { limitGroup } from '../../process/group.js';
import { MediaTimeoutError, MediaToolFailedError, MediaToolMissingError } from './errors.js';

export interface RunOptions {
  /** Time left in the upload's budget; the whole process group is stopped when it runs out. */
  timeoutMs: number;
  /** Service shutdown: stops the group like the time limit does. */
  signal?: AbortSignal;
  /** Each stdout chunk, for callers that read a long output as it comes instead of keeping it. */
  onStdout?: (chunk: Buffer) => void;
}

/** Kept stdout (callers parse a small JSON document) and stderr tail (for the log line). */
const MAX_STDOUT = 1024 * 1024;
const STDERR_TAIL = 2048;
/** Between SIGTERM and SIGKILL: ffmpeg finishes its output file on SIGTERM, which nobody needs then. */
const GRACE_MS = 1000;

/**
 * Runs ffmpeg or ffprobe in its own process group with a bounded time and output, and a minimal
 * environment (it needs none of the service's settings). Resolves with stdout (empty when `onStdout` takes
 * it); a missing binary, a timeout and a failure are typed errors.
 */
export function runTool(binary: string, args: readonly string[], options: RunOptions): Promise<string> {
  const tool = basename(binary);
  if (options.timeoutMs <= 0 || options.signal?.aborted) return Promise.reject(new MediaTimeoutError(tool));
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    });
    const limit = limitGroup(child, {
      timeoutMs: options.timeoutMs,
      graceMs: GRACE_MS,
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    let kept = 0;
    let stderr = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      limit.end();
      if (settled) return;
      settled = true;
      outcome();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.onStdout) return options.onStdout(chunk);
      if (kept >= MAX_STDOUT) return;
      stdout.push(chunk);
      kept += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle(() =>
        reject(error.code === 'ENOENT' || error.code === 'EACCES' ? new MediaToolMissingError(tool) : error),
      ),
    );
    child.on('close', (code) =>
      settle(() => {
        if (limit.timedOut || options.signal?.aborted) reject(new MediaTimeoutError(tool));
        else if (code !== 0) reject(new MediaToolFailedError(tool, code, stderr.trim()));
        else resolve(Buffer.concat(stdout).toString('utf8'));
      }),
    );
  });
}
