import type { DriveOp, Outcome } from './ops.js';

/** The most changes one batch applies: a bound on what one plan holds in memory and one transaction writes. */
const MAX_BATCH = 256;

interface Waiting {
  op: DriveOp;
  resolve: (outcome: Outcome) => void;
}

/**
 * One batch at a time per drive in this process: the changes asked for while a drive's batch is being applied
 * wait together and are applied as the next batch (one plan, one transaction, one new root), so a burst of
 * uploads costs a few publications instead of one each, and no two batches of one process ever race for the
 * same head. The batches of different drives run side by side (lmdb-js commits them together).
 */
export class DriveQueue {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly running = new Set<string>();

  constructor(private readonly apply: (key: string, ops: readonly DriveOp[]) => Promise<Outcome[]>) {}

  /** Resolves with the op's outcome (never rejects: a failed batch fails each of its ops). */
  submit(key: string, op: DriveOp): Promise<Outcome> {
    return new Promise((resolve) => {
      let queue = this.waiting.get(key);
      if (!queue) this.waiting.set(key, (queue = []));
      queue.push({ op, resolve });
      if (!this.running.has(key)) void this.run(key);
    });
  }

  private async run(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let batch = this.take(key); batch.length > 0; batch = this.take(key)) {
        let outcomes: Outcome[];
        try {
          outcomes = await this.apply(
            key,
            batch.map((w) => w.op),
          );
        } catch (error) {
          outcomes = batch.map(() => ({ ok: false, error }));
        }
        batch.forEach((w, i) => w.resolve(outcomes[i] ?? { ok: false, error: new Error('no outcome') }));
      }
    } finally {
      this.running.delete(key);
    }
  }

  private take(key: string): Waiting[] {
    const queue = this.waiting.get(key) ?? [];
    const batch = queue.splice(0, MAX_BATCH);
    if (queue.length === 0) this.waiting.delete(key);
    return batch;
  }
}
