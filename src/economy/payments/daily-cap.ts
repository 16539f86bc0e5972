import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic.js';
import { FileLocks } from '../../fs/file-lock.js';
import { within } from '../../fs/paths.js';

const HEX64 = /^[0-9a-f]{64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KEEP_DAYS = 7;

export type CapVerdict = 'within' | 'over';

/**
 * Ẑen a payer may give in likes per local day, shared by every process: `cap/<date>/<payer hex>.json`
 * maps reaction id → Ẑen, read and written under a cross-process lock. Keyed by reaction id, so counting
 * the same reaction twice (two workers racing for it) never uses the allowance twice.
 */
export class DailyCap {
  private readonly locks = new FileLocks({
    staleMs: 10_000,
    retries: { retries: 200, minTimeout: 5, maxTimeout: 100 },
  });

  constructor(
    private readonly root: string,
    private readonly capZen: number,
  ) {}

  /** Counts `zen` for `reactionId` against the payer's allowance of `day`, unless that would exceed it. */
  async reserve(day: string, payerHex: string, reactionId: string, zen: number): Promise<CapVerdict> {
    if (!DAY.test(day) || !HEX64.test(payerHex)) throw new RangeError('bad day or payer key');
    const dir = within(this.root, day);
    const file = within(dir, `${payerHex}.json`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return this.locks.run(`${file}.lock`, async () => {
      const spent = await readSpent(file);
      if (spent[reactionId] !== undefined) return 'within';
      const total = Object.values(spent).reduce((sum, value) => sum + value, 0);
      if (total + zen > this.capZen) return 'over';
      spent[reactionId] = zen;
      await writeFileAtomic(file, JSON.stringify(spent), { mode: 0o600 });
      return 'within';
    });
  }

  /** Ẑen already reserved by a payer on `day`. */
  async spent(day: string, payerHex: string): Promise<number> {
    const spent = await readSpent(within(this.root, day, `${payerHex}.json`));
    return Object.values(spent).reduce((sum, value) => sum + value, 0);
  }

  /** Removes the allowances of days long gone. */
  async sweep(today: string): Promise<void> {
    const cutoff = new Date(`${today}T00:00:00Z`).getTime() - KEEP_DAYS * 86_400_000;
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
      if (DAY.test(name) && new Date(`${name}T00:00:00Z`).getTime() < cutoff)
        await rm(join(this.root, name), { recursive: true, force: true });
    }
  }
}

async function readSpent(file: string): Promise<Record<string, number>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    );
  } catch {
    return {};
  }
}
