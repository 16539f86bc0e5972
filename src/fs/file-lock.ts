import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { lockFs, markWanted, staleIfHolderGone, wantedWithin } from './lock-holder.js';

/**
 * Keeping a lock between sections (see FileLocks): a lock taken and given back for every section costs a
 * directory made and removed each time, and the section cannot trust what it cached, since another process
 * may have held the lock in between.
 */
export interface LockLease {
  /** A lock no section used for this long is given back. */
  idleMs: number;
  /** After holding a lock this long, the holder gives it up for `yieldMs` if another process is waiting. */
  maxMs: number;
  /** Longer than a waiter's longest wait between tries (`retries.maxTimeout`), so that it gets its turn. */
  yieldMs: number;
}

export interface FileLockOptions {
  /** A lock not refreshed for this long is taken over: its holder died. */
  staleMs: number;
  /** How often the holder refreshes its lock (default: proper-lockfile's, staleMs / 2). */
  updateMs?: number;
  /** How long a process keeps trying for a lock another process holds: tries, and the wait between them. */
  retries: { retries: number; minTimeout: number; maxTimeout: number };
  /** The lock was lost while held (its directory removed or taken over): the section may not be alone. */
  onCompromised?: (error: Error) => void;
  /**
   * Makes the lock's folder when it does not exist, at the moment the lock is taken: callers need not ask
   * for it (a system call) before every section.
   */
  makeParent?: boolean;
  /** Absent: every section takes the lock and gives it back. */
  lease?: LockLease;
  /** Marks each try for a held lock (`<lock>.wanted`), so that a holder with a lease lets it go. */
  markWaiting?: boolean;
  /** Names the holding process in the lock (lock-holder.ts): a lock whose holder died is taken at once. */
  namesHolder?: boolean;
}

/**
 * Which holding of a lock a section runs in: the same number as an earlier section's means this process
 * held the lock without a break since then, so nothing another process writes under it can have changed.
 */
export type Tenure = number;

interface Holding {
  release: () => Promise<void>;
  tenure: Tenure;
  /** performance.now() when taken, or when last kept past `maxMs` with nobody waiting. */
  since: number;
  lastUsed: number;
  lost: boolean;
}

let tenures = 0;

/**
 * Exclusive sections keyed by a lock path, for every process that shares the files (PM2 workers, the CLI).
 * Inside a process, callers of one key queue on a promise chain: no polling, and proper-lockfile refuses a
 * lock its own process already holds. Across processes, the section holds a proper-lockfile lock (a
 * directory at the lock path, refreshed while held, taken over once stale), so a crashed holder never
 * blocks the others for long. A lock another process holds is waited for with back-off; past the retries,
 * the lock error (`code: 'ELOCKED'`) is thrown. With a lease, a lock stays held between sections while they
 * keep coming (none of that cost), and is given back when idle, on `close`, or to a waiting process.
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly held = new Map<string, Holding>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: FileLockOptions) {}

  run<T>(lockPath: string, critical: (tenure: Tenure) => Promise<T>): Promise<T> {
    return this.queued(lockPath, async () => {
      const holding = await this.holding(lockPath);
      try {
        return await critical(holding.tenure);
      } finally {
        if (this.options.lease && !holding.lost) {
          holding.lastUsed = performance.now();
          this.sweepIdle();
        } else await this.giveBack(lockPath, holding);
      }
    });
  }

  /** Gives back every lock kept by a lease, once the sections queued for it are done. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all(
      [...this.held.keys()].map((path) =>
        this.queued(path, async () => {
          const holding = this.held.get(path);
          if (holding) await this.giveBack(path, holding);
        }),
      ),
    );
  }

  private async holding(lockPath: string): Promise<Holding> {
    const kept = this.held.get(lockPath);
    if (kept && !kept.lost) {
      const { maxMs, yieldMs } = this.options.lease!;
      if (performance.now() - kept.since < maxMs) return kept;
      if (!(await wantedWithin(lockPath, maxMs))) {
        kept.since = performance.now();
        return kept;
      }
      await this.giveBack(lockPath, kept);
      await sleep(yieldMs);
    } else if (kept) this.held.delete(lockPath);
    const holding = await this.take(lockPath);
    if (this.options.lease) this.held.set(lockPath, holding);
    return holding;
  }

  private async take(lockPath: string): Promise<Holding> {
    const {
      staleMs,
      updateMs,
      retries,
      onCompromised,
      makeParent = false,
      namesHolder = false,
    } = this.options;
    const fs = makeParent || namesHolder ? lockFs({ makeParent, namesHolder }) : undefined;
    const now = performance.now();
    const holding: Holding = {
      release: async () => {},
      tenure: ++tenures,
      since: now,
      lastUsed: now,
      lost: false,
    };
    const attempt = () =>
      lockfile.lock(lockPath, {
        ...(fs ? { fs } : {}),
        realpath: false,
        lockfilePath: lockPath,
        stale: staleMs,
        ...(updateMs === undefined ? {} : { update: updateMs }),
        retries: 0,
        onCompromised: (error) => {
          holding.lost = true;
          // proper-lockfile's own answer when none is given: the process stops rather than go on unlocked.
          if (!onCompromised) throw error;
          onCompromised(error);
        },
      });
    // A free lock is taken at once; only one another process holds is waited for, with back-off.
    let wait = retries.minTimeout;
    let triedAgainAtOnce = false;
    for (let tried = 0; ; tried++) {
      try {
        holding.release = await attempt();
        holding.since = performance.now();
        return holding;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
        if (namesHolder && !triedAgainAtOnce && (await staleIfHolderGone(lockPath))) {
          triedAgainAtOnce = true;
          continue;
        }
        if (tried >= retries.retries) throw error;
      }
      if (this.options.markWaiting) await markWanted(lockPath);
      await sleep(wait * (0.5 + Math.random() / 2));
      wait = Math.min(retries.maxTimeout, wait * 1.2);
    }
  }

  private async giveBack(lockPath: string, holding: Holding): Promise<void> {
    if (this.held.get(lockPath) === holding) this.held.delete(lockPath);
    // A lock already gone (compromised, or removed by hand) has nothing left to release.
    await holding.release().catch(() => undefined);
  }

  /** Gives back, every idleMs / 2, the locks no section used for idleMs and none waits for. */
  private sweepIdle(): void {
    const { idleMs } = this.options.lease!;
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const [path, holding] of this.held) {
        if (now - holding.lastUsed < idleMs || this.tails.has(path)) continue;
        void this.queued(path, async () => {
          if (this.held.get(path) === holding && performance.now() - holding.lastUsed >= idleMs)
            await this.giveBack(path, holding);
        });
      }
      if (this.held.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, idleMs / 2);
    this.sweeper.unref();
  }

  private queued<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
