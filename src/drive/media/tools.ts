import pLimit, { type LimitFunction } from 'p-limit';
import { basename } from 'node:path';
import { MediaTimeoutError } from './errors.js';
import { runTool } from './run.js';

/** The time one upload may spend on its media fields, from the moment it starts asking for them. */
export class Budget {
  private readonly deadline: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly expiry: Promise<never>;

  constructor(ms: number) {
    // Monotonic: a wall-clock jump must neither cut nor stretch the wait.
    this.deadline = performance.now() + ms;
    this.expiry = new Promise<never>((_resolve, reject) => {
      this.timer = setTimeout(() => reject(new MediaTimeoutError('media')), ms);
      this.timer.unref();
    });
    this.expiry.catch(() => undefined);
  }

  remaining(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** `work`, unless the budget runs out first: waiting in the queue counts too. */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.expiry]);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

export type Tool = 'ffmpeg' | 'ffprobe';

/**
 * ffmpeg and ffprobe as this process runs them: at most `concurrency` at once (they are CPU-heavy and the
 * answer waits for them), each within what is left of its upload's budget, all stopped on shutdown.
 */
export class MediaTools {
  private readonly limit: LimitFunction;
  private readonly stopping = new AbortController();

  constructor(
    private readonly binaries: Record<Tool, string>,
    concurrency: number,
  ) {
    this.limit = pLimit(concurrency);
  }

  name(tool: Tool): string {
    return basename(this.binaries[tool]);
  }

  run(tool: Tool, args: readonly string[], budget: Budget, onStdout?: (chunk: Buffer) => void) {
    const queued = this.limit(() =>
      runTool(this.binaries[tool], args, {
        timeoutMs: budget.remaining(),
        signal: this.stopping.signal,
        onStdout,
      }),
    );
    return budget.race(queued);
  }

  /** Stops every running process group; queued runs then fail at once. */
  close(): void {
    this.stopping.abort();
  }
}
