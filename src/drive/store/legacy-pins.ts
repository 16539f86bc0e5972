import { readdir, rm } from 'node:fs/promises';
import { within } from '../../fs/paths.js';

/**
 * Pins written by versions before the LMDB store (block-storage.ts): one file per pinned CID in
 * `<store>/pins/`. Still listed and removed, never added; the directory may not exist.
 */
export class LegacyPins {
  /** The pins found at the first removal: no process of this version adds one, so the set only shrinks. */
  private found: Promise<Set<string>> | null = null;

  constructor(private readonly dir: string) {}

  /** Removes the file of a pin; looked for once, not at every unpin (most stations have none left). */
  async remove(cid: string): Promise<void> {
    const path = this.fileFor(cid);
    this.found ??= this.list().then((names) => new Set(names));
    const found = await this.found;
    if (!found.has(cid)) return;
    await rm(path, { force: true });
    found.delete(cid);
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    // Temp files of writes in progress start with a dot.
    return names.filter((name) => !name.startsWith('.')).sort();
  }

  private fileFor(cid: string): string {
    if (!/^[A-Za-z0-9]+$/.test(cid)) throw new Error(`not a CID: ${cid}`);
    return within(this.dir, cid);
  }
}
