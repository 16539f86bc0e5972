import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../../fs/atomic.js';
import { within } from '../../fs/paths.js';

/**
 * Durable recursive pins of the embedded store: one small file per pinned CID, written atomically. Several
 * processes (PM2 workers, the CLI) pin and unpin concurrently without a shared lock, and a crash never
 * leaves a half-written pin list behind.
 */
export class PinSet {
  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<PinSet> {
    await mkdir(dir, { recursive: true });
    return new PinSet(dir);
  }

  async add(cid: string, at: Date = new Date()): Promise<void> {
    if (await this.has(cid)) return;
    await writeFileAtomic(this.fileFor(cid), `${at.toISOString()}\n`);
  }

  async remove(cid: string): Promise<void> {
    await rm(this.fileFor(cid), { force: true });
  }

  async has(cid: string): Promise<boolean> {
    try {
      await stat(this.fileFor(cid));
      return true;
    } catch {
      return false;
    }
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.dir);
    // Temp files of writes in progress start with a dot.
    return names.filter((name) => !name.startsWith('.')).sort();
  }

  private fileFor(cid: string): string {
    if (!/^[A-Za-z0-9]+$/.test(cid)) throw new Error(`not a CID: ${cid}`);
    return within(this.dir, cid);
  }
}
