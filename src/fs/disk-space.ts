import { statfs } from 'node:fs/promises';

export interface DiskSpace {
  /** Bytes an unprivileged process may still write on the file system of the data directory. */
  freeBytes: number;
  /** Under the station's threshold (DISK_MIN_FREE_MB): `/health` says degraded. */
  low: boolean;
}

/**
 * Free space of the file system holding DATA_ROOT, for `/health`. Asked at most once per `maxAgeMs` however
 * often a supervisor probes: a load balancer polling `/health` must not turn into a stream of system calls.
 */
export class DiskSpaceMonitor {
  private last: { at: number; answer: Promise<DiskSpace> } | null = null;

  constructor(
    private readonly dir: string,
    private readonly minFreeBytes: number,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = 2_000,
  ) {}

  read(): Promise<DiskSpace> {
    const now = this.now();
    if (this.last && now - this.last.at < this.maxAgeMs) return this.last.answer;
    const answer = statfs(this.dir).then((stats) => {
      const freeBytes = Number(stats.bavail) * Number(stats.bsize);
      return { freeBytes, low: freeBytes < this.minFreeBytes };
    });
    this.last = { at: now, answer };
    // A failed read is not kept: the next probe asks again.
    answer.catch(() => {
      if (this.last?.answer === answer) this.last = null;
    });
    return answer;
  }
}
