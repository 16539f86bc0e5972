import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { localTimestamp, type Clock } from '../../clock.js';
import { limitGroup } from '../../process/group.js';

export interface ScriptRun {
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Appended to: a header line, the script's stdout and stderr, a footer line. */
  logFile: string;
  timeoutMs: number;
  clock: Clock;
  /** Between SIGTERM and SIGKILL of the process group once the time limit is reached. */
  killGraceMs?: number;
  /** Aborting (service shutdown) stops the script like the time limit does. */
  signal?: AbortSignal;
}

export interface ScriptResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  /** Set when the script could not be started at all. */
  spawnError?: string;
}

/**
 * Runs one scraper script in its own process group (detached), with no shell and its output appended to
 * the log file. At the time limit the whole group gets SIGTERM, then SIGKILL, so helpers it started
 * (yt-dlp, python, a forgotten `sleep &`) die with it; stragglers are also killed when the script exits.
 */
export async function runScript(run: ScriptRun): Promise<ScriptResult> {
  const started = run.clock.now();
  const log = await open(run.logFile, 'a', 0o600);
  try {
    await log.write(`=== ${localTimestamp(started)} start ${run.script} ${run.args.join(' ')}\n`);
    return await new Promise<ScriptResult>((resolve) => {
      const child = spawn(run.script, run.args, {
        cwd: run.cwd,
        env: run.env,
        detached: true,
        stdio: ['ignore', log.fd, log.fd],
      });
      const group = limitGroup(child, {
        timeoutMs: run.timeoutMs,
        graceMs: run.killGraceMs ?? 5_000,
        signal: run.signal,
      });
      let finished = false;
      const finish = (result: Omit<ScriptResult, 'timedOut' | 'durationMs'>) => {
        if (finished) return;
        finished = true;
        group.end();
        resolve({ ...result, timedOut: group.timedOut, durationMs: run.clock.now() - started });
      };
      child.once('error', (error) => finish({ exitCode: null, signal: null, spawnError: error.message }));
      child.once('exit', (exitCode, signal) => finish({ exitCode, signal }));
    }).then(async (result) => {
      const outcome = result.spawnError
        ? `could not start: ${result.spawnError}`
        : result.timedOut
          ? `killed after the time limit of ${Math.round(run.timeoutMs / 1000)} s`
          : result.signal
            ? `killed by ${result.signal}`
            : `exit ${result.exitCode}`;
      await log.write(`=== ${localTimestamp(run.clock.now())} ${outcome} (${result.durationMs} ms)\n`);
      return result;
    });
  } finally {
    await log.close();
  }
}
