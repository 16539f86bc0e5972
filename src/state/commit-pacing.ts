/**
 * The shortest time between two transactions of one LMDB environment while writes keep coming. Each
 * transaction costs its pages' writes, a flush and two thread hand-offs whatever it holds; under load,
 * writes that wait this long share one instead (docs/decisions.md, "Paced LMDB commits"). A write that finds
 * no other in line is not delayed at all.
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
 * Spaces a store's transactions at least `gapMs` apart while writers overlap. Each writer `arrive`s when it
 * asks for a transaction and leaves once it is written; before each transaction its writer takes a `turn`
 * (one at a time: they already queue their transactions). A turn waits out what is left of the gap since the
 * previous transaction started only when a writer arrived while another was still in line, so that writes
 * arriving meanwhile join the transaction. One writer after another (a client sending its files in turn)
 * is never delayed: waiting would gather nobody.
 */
export class CommitPacing {
  private lastStart = Number.NEGATIVE_INFINITY;
  private inLine = 0;
  private contended = false;

  constructor(
    private readonly gapMs = COMMIT_GAP_MS,
    private readonly clock: PacingClock = realClock,
  ) {}

  /** A writer asks for a transaction; call the returned function once that transaction is written. */
  arrive(): () => void {
    if (this.inLine > 0) this.contended = true;
    this.inLine += 1;
    return () => {
      this.inLine -= 1;
    };
  }

  async turn(): Promise<void> {
    const wait = this.lastStart + this.gapMs - this.clock.now();
    if (this.contended && wait > 0) await this.clock.sleep(wait);
    this.contended = false;
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
    const leave = this.pacing.arrive();
    this.waiting.push(operation);
    const batch = this.next ?? this.startBatch();
    void batch.then(leave, leave);
    return batch;
  }

  private startBatch(): Promise<void> {
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
