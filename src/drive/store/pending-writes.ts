/** Blocks by key, and pins by key: a date to pin, null to unpin. */
export interface WriteBatch {
  readonly blocks: Map<string, Buffer>;
  readonly pins: Map<string, string | null>;
}

/** After a failed transaction (a full disk), writes nobody asked to commit are tried again this much later. */
const RETRY_MS = 1_000;

const emptyBatch = (): WriteBatch => ({ blocks: new Map(), pins: new Map() });

/** What committing a batch asks of the database: writing it in one transaction, and its flush to disk. */
export interface BatchTarget {
  write(batch: WriteBatch): Promise<void>;
  flushed(): Promise<void>;
}

/**
 * The store's writes, held in memory until someone needs them durable (`commit`, which a drive publication
 * calls once before its log line) and then written in one transaction with one flush. Each LMDB transaction
 * costs the write thread's wake-ups, its pages and its flush whatever it holds: a lone upload made seven of
 * them (its leaf, its wrapper, its pins, its tree, its unpin, each committed as it came), and now makes one;
 * uploads that publish together share one. Transactions are written one at a time, and every commit asked for
 * while one is written joins the next (a group commit): under load they hold as many publications as came
 * during the previous one, and a lone publication starts its own at once (docs/decisions.md, "Group commits
 * in the content store"). Writes nobody commits (an unpin after a publication) are committed after
 * `idleCommitMs`, which also bounds what the buffer holds. Until committed, writes are seen by this process
 * only (reads ask `block` and `pin` first); other processes see them once committed.
 */
export class PendingWrites {
  private open = emptyBatch();
  private committing: WriteBatch | null = null;
  /** The transaction being written or last written: the next one starts when it ends. */
  private queue: Promise<void> = Promise.resolve();
  /** The next transaction, not started yet: commits asked for now are written by it. */
  private forming: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Transactions written so far: what a publication costs, counted by the tests. */
  commits = 0;

  constructor(
    private readonly target: BatchTarget,
    private readonly idleCommitMs = 50,
  ) {}

  block(key: string): Buffer | undefined {
    return this.open.blocks.get(key) ?? this.committing?.blocks.get(key);
  }

  /** A pin's pending state: its date, null for an unpin, undefined when the database has the last word. */
  pin(key: string): string | null | undefined {
    if (this.open.pins.has(key)) return this.open.pins.get(key);
    return this.committing?.pins.get(key);
  }

  /** Pending pins as the database will have them: the dates to add and the keys to remove. */
  pinChanges(): { added: string[]; removed: Set<string> } {
    const merged = new Map([...(this.committing?.pins ?? []), ...this.open.pins]);
    const added = [...merged].filter(([, date]) => date !== null).map(([key]) => key);
    return { added, removed: new Set([...merged].filter(([, date]) => date === null).map(([key]) => key)) };
  }

  putBlock(key: string, bytes: Buffer): void {
    this.open.blocks.set(key, bytes);
    this.later();
  }

  setPin(key: string, date: string | null): void {
    this.open.pins.set(key, date);
    this.later();
  }

  /**
   * Resolves once everything written before the call is committed and flushed: by the next transaction to
   * start, which every call made meanwhile shares. A failed transaction's writes go back in the buffer, so the
   * next commit tries them again and no later caller is told they are durable when they are not.
   */
  commit(): Promise<void> {
    this.forming ??= this.nextTransaction();
    // The flush of one transaction overlaps the writing of the next.
    return this.forming.then(() => this.target.flushed());
  }

  /** Commits what is left and stops the timer: before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.commit();
  }

  private nextTransaction(): Promise<void> {
    const transaction = this.queue.then(() => {
      // Started: what is written from now on waits for the transaction after this one.
      this.forming = null;
      return this.writeOpen();
    });
    this.queue = transaction.catch(() => undefined);
    return transaction;
  }

  private async writeOpen(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.open;
    if (batch.blocks.size > 0 || batch.pins.size > 0) {
      this.open = emptyBatch();
      this.committing = batch;
      try {
        await this.target.write(batch);
        this.commits += 1;
      } catch (error) {
        this.requeue(batch);
        throw error;
      } finally {
        this.committing = null;
      }
    }
  }

  /** A failed batch's writes, under what was written since (newer pin states win). */
  private requeue(batch: WriteBatch): void {
    for (const [key, bytes] of batch.blocks) if (!this.open.blocks.has(key)) this.open.blocks.set(key, bytes);
    for (const [key, date] of batch.pins) if (!this.open.pins.has(key)) this.open.pins.set(key, date);
    this.later(RETRY_MS);
  }

  private later(delayMs = this.idleCommitMs): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failure is kept (requeue) and reported to the next caller of commit().
      void this.commit().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }
}
