import { link, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from 'pino';
import { tempPathFor, writeFileAtomic } from '../../fs/atomic.js';
import { within } from '../../fs/paths.js';
import { isPaymentRecord, TERMINAL, type PaymentRecord } from './record.js';

const ID = /^[0-9a-f]{64}$/;

export interface JournalOptions {
  /** A lock not refreshed for this long belongs to a dead process (proper-lockfile's `stale`, ≥ 2000). */
  lockStaleMs?: number;
  logger?: Logger;
}

/**
 * The durable payment journal under `TMP_DIR/payments/`, shared by every process of the station:
 *
 * - `records/<reaction id>.json` — one record per reaction. It is created by `link(2)` from a complete
 *   temporary file, which fails when the name exists: the first process to link wins the reaction (exactly
 *   once across restarts and PM2 workers), and no reader ever sees a half-written record. Later states are
 *   written temp + rename.
 * - `open/<reaction id>` — an empty marker while the record is not terminal, so the periodic recovery scan
 *   reads only the few open records, never the whole history.
 * - `locks/<reaction id>.lock` — held (proper-lockfile, refreshed while held) by the process running the
 *   command; a lock that went stale means its holder died mid-payment.
 */
export class PaymentJournal {
  readonly records: string;
  readonly open: string;
  readonly locks: string;
  private readonly staleMs: number;

  constructor(
    readonly root: string,
    private readonly options: JournalOptions = {},
  ) {
    this.records = join(root, 'records');
    this.open = join(root, 'open');
    this.locks = join(root, 'locks');
    this.staleMs = Math.max(2_000, options.lockStaleMs ?? 30_000);
  }

  async init(): Promise<this> {
    for (const dir of [this.root, this.records, this.open, this.locks])
      await mkdir(dir, { recursive: true, mode: 0o700 });
    return this;
  }

  async has(id: string): Promise<boolean> {
    try {
      await stat(this.recordPath(id));
      return true;
    } catch {
      return false;
    }
  }

  /** Writes the first record of a reaction; false when any process already journaled that reaction. */
  async create(record: PaymentRecord): Promise<boolean> {
    const target = this.recordPath(record.id);
    if (!TERMINAL.has(record.status)) await writeFile(this.openPath(record.id), '', { mode: 0o600 });
    const temp = tempPathFor(target);
    await writeFile(temp, JSON.stringify(record, null, 1), { flag: 'wx', mode: 0o600 });
    try {
      await link(temp, target);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  async read(id: string): Promise<PaymentRecord | null> {
    let text: string;
    try {
      text = await readFile(this.recordPath(id), 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return isPaymentRecord(parsed) ? parsed : null;
    } catch {
      this.options.logger?.error({ id }, 'unreadable payment record');
      return null;
    }
  }

  /** Replaces a record atomically; terminal states leave the open set. */
  async write(record: PaymentRecord): Promise<void> {
    if (!TERMINAL.has(record.status)) await writeFile(this.openPath(record.id), '', { mode: 0o600 });
    await writeFileAtomic(this.recordPath(record.id), JSON.stringify(record, null, 1), { mode: 0o600 });
    if (TERMINAL.has(record.status)) await rm(this.openPath(record.id), { force: true });
  }

  /** Reaction ids whose record may still need work. */
  async openIds(): Promise<string[]> {
    const names = await readdir(this.open).catch(() => [] as string[]);
    return names.filter((name) => ID.test(name));
  }

  /** Drops an open marker that turned out to have no pending work. */
  async close(id: string): Promise<void> {
    await rm(this.openPath(id), { force: true });
  }

  /** Every record, for the operator's list (not used on any request path). */
  async *all(): AsyncGenerator<PaymentRecord> {
    const names = await readdir(this.records).catch(() => [] as string[]);
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -5) : '';
      if (!ID.test(id)) continue;
      const record = await this.read(id);
      if (record) yield record;
    }
  }

  /**
   * Runs `critical` holding the record's lock; null (without running it) when another live process holds
   * it. The lock is refreshed while held, so it only goes stale if its holder dies.
   */
  async withLock<T>(id: string, critical: () => Promise<T>): Promise<{ value: T } | null> {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.recordPath(id), {
        realpath: false,
        lockfilePath: this.lockPath(id),
        stale: this.staleMs,
        update: Math.floor(this.staleMs / 4),
        retries: 0,
        onCompromised: (error) =>
          this.options.logger?.error({ err: error, id }, 'payment lock compromised (holder too slow?)'),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return null;
      throw error;
    }
    try {
      return { value: await critical() };
    } finally {
      await release().catch(() => undefined);
    }
  }

  /** True while a live process holds the record's lock. */
  async isLocked(id: string): Promise<boolean> {
    return lockfile.check(this.recordPath(id), {
      realpath: false,
      lockfilePath: this.lockPath(id),
      stale: this.staleMs,
    });
  }

  recordPath(id: string): string {
    return within(this.records, `${checkId(id)}.json`);
  }

  private openPath(id: string): string {
    return within(this.open, checkId(id));
  }

  private lockPath(id: string): string {
    return within(this.locks, `${checkId(id)}.lock`);
  }
}

function checkId(id: string): string {
  if (!ID.test(id)) throw new RangeError('a payment id is a 64-hex reaction event id');
  return id;
}
