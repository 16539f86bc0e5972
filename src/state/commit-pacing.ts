/**
 * The shortest time between two transactions of one LMDB environment while writes keep coming. Each
 * transaction costs its pages' writes, a flush and two thread hand-offs whatever it holds; under load,
 * writes that wait this long share one instead (docs/decisions.md, "Paced LMDB commits"). A write arriving
 * after a quiet spell is not delayed at all.
 */
export const COMMIT_GAP_MS = 10;

/** A clock and a timer: `performance.now()` and `setTimeout` unless a test says otherwise. */
export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Spaces a store's transactions at least `gapMs` apart. Callers take a turn before each transaction and
 * take turns one at a time (they already queue their transactions): a turn waits out what is left of the
 * gap since the previous one started, so that writes arriving meanwhile join the transaction.
 */
export class CommitPacing {
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly gapMs = COMMIT_GAP_MS,
    private readonly clock: PacingClock = realClock,
  ) {}

  async turn(): Promise<void> {
    const wait = this.lastStart + this.gapMs - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
    this.lastStart = this.clock.now();
  }
}

/**
 * Operations from many callers, run together in one transaction per turn of `pacing`: each caller's promise
 * settles with the transaction that ran its operation. `transact` runs its callback inside one transaction,
 * so an operation reads what the earlier ones of its batch wrote.
 */
export class GroupedTransactions {
  private waiting: (() => void)[] = [];
  private next: Promise<void> | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly transact: (body: () => void) => Promise<unknown>,
    private readonly pacing: CommitPacing = new CommitPacing(),
  ) {}

  run(operation: () => void): Promise<void> {
    this.waiting.push(operation);
    if (this.next) return this.next;
    const batch = this.queue.then(async () => {
      await this.pacing.turn();
      const operations = this.waiting;
      this.waiting = [];
      this.next = null;
      await this.transact(() => {
        for (const op of operations) op();
      });
    });
    this.next = batch;
    this.queue = batch.catch(() => undefined);
    return batch;
  }
}
