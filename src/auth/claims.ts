import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unixSeconds, type Clock } from '../clock.js';

const KEY = /^[0-9a-f]{16,128}$/;

interface Entry {
  expiresAt: number;
  value: string;
}

/**
 * Single-use records shared by every process of the station (PM2 cluster workers, the CLI): one small file
 * per key, created with O_EXCL (the atomic "first one wins") and removed by unlink (the atomic "take").
 * Keys are hex strings only, so they are always safe file names.
 */
export class FileClaims {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
  ) {}

  async init(): Promise<this> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    return this;
  }

  /** True the first time `key` is claimed; false if it was claimed before (and has not yet been swept). */
  async claim(key: string, expiresAt: number, value = ''): Promise<boolean> {
    if (!KEY.test(key)) return false;
    try {
      await writeFile(this.path(key), JSON.stringify({ expiresAt, value } satisfies Entry), {
        flag: 'wx',
        mode: 0o600,
      });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /** Reads an unexpired entry without consuming it. */
  async peek(key: string): Promise<string | null> {
    const entry = await this.read(key);
    return entry && entry.expiresAt >= unixSeconds(this.clock) ? entry.value : null;
  }

  /**
   * Consumes an entry that had not expired at `atSeconds` (default: now): exactly one caller, in any process,
   * gets its value.
   */
  async take(key: string, atSeconds = unixSeconds(this.clock)): Promise<string | null> {
    const entry = await this.read(key);
    if (!entry) return null;
    try {
      await unlink(this.path(key));
    } catch {
      return null;
    }
    return entry.expiresAt >= atSeconds ? entry.value : null;
  }

  /** Removes expired entries; run periodically so the directory stays small. */
  async sweep(): Promise<number> {
    const now = unixSeconds(this.clock);
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const entry = await this.read(name);
      if (entry && entry.expiresAt < now) {
        await unlink(this.path(name)).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }

  startSweeping(intervalMs = 60_000): void {
    this.sweeper ??= setInterval(() => void this.sweep().catch(() => undefined), intervalMs).unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  private path(key: string): string {
    return join(this.dir, key);
  }

  private async read(key: string): Promise<Entry | null> {
    if (!KEY.test(key)) return null;
    try {
      const entry = JSON.parse(await readFile(this.path(key), 'utf8')) as Entry;
      return typeof entry.expiresAt === 'number' ? entry : null;
    } catch {
      return null;
    }
  }
}
