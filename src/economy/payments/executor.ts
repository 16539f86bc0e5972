import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../../clock.js';
import { commandArgv, runPaymentCommand, type CommandOutcome } from './command.js';
import { ownerAlive, SENDING } from './owner.js';
import { settle, type ExecutorStats } from './outcome.js';
import type { PaymentJournal } from './journal.js';
import { transition, type PaymentRecord } from './record.js';

export interface ExecutorOptions {
  journal: PaymentJournal;
  clock: Clock;
  /** Parsed `PAYMENT_COMMAND`; null = nothing is ever sent, records stay queued. */
  command: readonly string[] | null;
  /** Absolute `.secret.dunikey` path of a payer, by e-mail. */
  dunikeyPath: (email: string) => string;
  concurrency?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  scanIntervalMs?: number;
  logger?: Logger;
}

/**
 * Runs queued payments off the relay subscription: a bounded number of commands at once, retries with
 * exponential back-off, and a periodic scan of the journal's open records that picks up work left by a
 * restart or by another worker and flags payments whose process died while the command ran.
 */
export class PaymentExecutor {
  readonly stats: ExecutorStats = { attempts: 0, sent: 0, retried: 0, failed: 0, interrupted: 0 };
  private readonly waiting: string[] = [];
  private readonly known = new Set<string>();
  private readonly active = new Set<Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private scanner: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly scans = new Set<Promise<void>>();

  constructor(private readonly options: ExecutorOptions) {}

  get enabled(): boolean {
    return this.options.command !== null;
  }

  /** Payments waiting in this process or running now. */
  get pending(): number {
    return this.known.size;
  }

  start(): void {
    this.stopped = false;
    // Without a command one scan is enough: it flags payments a previous run left mid-command; queued ones
    // simply wait, and re-reading them every interval would be work for nothing.
    void this.scan();
    if (!this.enabled) return;
    this.scanner ??= setInterval(() => void this.scan(), this.options.scanIntervalMs ?? 30_000);
    this.scanner.unref();
  }

  /** Stops taking work and waits for the commands already running (their outcome is journaled). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.scanner) clearInterval(this.scanner);
    this.scanner = null;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waiting.length = 0;
    // A scan under way may be writing a record: the journal is left only once it is done.
    await Promise.allSettled([...this.active, ...this.scans]);
  }

  /** Asks for a journaled payment to be tried; returns at once. */
  enqueue(id: string): void {
    if (!this.enabled || this.stopped || this.known.has(id)) return;
    this.known.add(id);
    this.waiting.push(id);
    this.pump();
  }

  /** Reads the open records: requeues due ones, flags dead processes' payments, closes finished ones. */
  async scan(): Promise<void> {
    const running = this.scanOnce();
    this.scans.add(running);
    try {
      await running;
    } finally {
      this.scans.delete(running);
    }
  }

  private async scanOnce(): Promise<void> {
    const { journal, logger } = this.options;
    try {
      for (const id of await journal.openIds()) {
        if (this.stopped) return;
        if (this.known.has(id)) continue;
        const record = await journal.read(id);
        if (!record) continue;
        if (record.status === 'queued') this.schedule(record);
        else if (record.status === 'sending') await this.flagIfOrphaned(id);
        else await journal.close(id);
      }
    } catch (error) {
      logger?.error({ err: error }, 'payment journal scan failed');
    }
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 2;
    while (!this.stopped && this.active.size < limit && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const run = this.attempt(id)
        .catch((error: unknown) => {
          this.options.logger?.error({ err: error, id }, 'payment attempt failed');
          return null;
        })
        .then((later) => {
          this.active.delete(run);
          this.known.delete(id);
          // A back-off, or a record that is not due yet, comes back on a timer.
          if (later) this.schedule(later);
          this.pump();
        });
      this.active.add(run);
    }
  }

  private schedule(record: PaymentRecord): void {
    if (!this.enabled || this.stopped || this.timers.has(record.id)) return;
    const delay = record.next_attempt_at - this.options.clock.now();
    if (delay <= 0) return this.enqueue(record.id);
    const timer = setTimeout(() => {
      this.timers.delete(record.id);
      this.enqueue(record.id);
    }, delay);
    timer.unref();
    this.timers.set(record.id, timer);
  }

  /** One try under the record's lock; returns the record when it must be tried again later. */
  private async attempt(id: string): Promise<PaymentRecord | null> {
    const { journal } = this.options;
    const result = await journal.withLock(id, async (): Promise<PaymentRecord | null> => {
      const record = await journal.read(id);
      if (!record || record.status !== 'queued' || this.stopped) return null;
      if (record.next_attempt_at > this.options.clock.now()) return record;
      const sending = transition(record, 'sending', this.now(), {
        attempts: record.attempts + 1,
        owner: { host: hostname(), pid: process.pid },
      });
      await journal.write(sending);
      this.stats.attempts++;
      SENDING.add(id);
      let outcome: CommandOutcome;
      try {
        outcome = await runPaymentCommand(
          commandArgv(this.options.command ?? [], {
            dunikey: this.options.dunikeyPath(record.payer.email),
            amount_g1: record.amount_g1,
            cents: record.cents,
            to: record.payee.wallet,
            comment: record.comment,
          }),
          { timeoutMs: this.options.timeoutMs ?? 120_000 },
        );
      } finally {
        // Whatever threw, the record stays `sending`: the next scan then flags it for the operator.
        SENDING.delete(id);
      }
      const next = settle(sending, outcome, { ...this.options, at: this.now(), stats: this.stats });
      await journal.write(next);
      return next.status === 'queued' ? next : null;
    });
    // null: another live process holds the lock and is handling this payment.
    return result?.value ?? null;
  }

  /** A `sending` record nobody holds: its process died mid-command. Never re-sent automatically. */
  private async flagIfOrphaned(id: string): Promise<void> {
    const { journal, logger } = this.options;
    if (await journal.isLocked(id)) return;
    await journal.withLock(id, async () => {
      const record = await journal.read(id);
      if (record?.status !== 'sending' || ownerAlive(record)) return;
      this.stats.interrupted++;
      logger?.error({ id, to: record.payee.wallet }, 'payment interrupted mid-command: check the chain');
      await journal.write(
        transition(record, 'interrupted', this.now(), {}, 'process stopped while the command ran'),
      );
    });
  }

  private now(): string {
    return localTimestamp(this.options.clock.now());
  }
}
