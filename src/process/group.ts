import type { ChildProcess } from 'node:child_process';

/** Signals a whole process group; a group that is already gone is not an error. */
export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export interface GroupLimitOptions {
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL of the group once stopped. */
  graceMs: number;
  /** Aborting (service shutdown) stops the group like the time limit does. */
  signal?: AbortSignal;
}

export interface GroupLimit {
  /** True once the time limit was reached. */
  readonly timedOut: boolean;
  /** SIGTERM to the group now, SIGKILL after the grace; once only. */
  stop(): void;
  /** Clears the timers and SIGKILLs what is left of the group: call it once the child has exited. */
  end(): void;
}

/**
 * Bounds a child spawned with `detached: true` (so its pid is its own process group id) and everything it
 * started: killing only the direct child would leave its helpers (the real transfer, yt-dlp, a `sleep &`)
 * running, holding its output pipes open.
 */
export function limitGroup(child: ChildProcess, options: GroupLimitOptions): GroupLimit {
  let timedOut = false;
  let killer: NodeJS.Timeout | null = null;
  let ended = false;
  const stop = () => {
    if (child.pid === undefined || killer || ended) return;
    const pid = child.pid;
    killGroup(pid, 'SIGTERM');
    killer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.graceMs);
  };
  const limit = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  return {
    get timedOut() {
      return timedOut;
    },
    stop,
    end() {
      if (ended) return;
      ended = true;
      clearTimeout(limit);
      if (killer) clearTimeout(killer);
      options.signal?.removeEventListener('abort', stop);
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    },
  };
}
