import { readdir, rm } from 'node:fs/promises';
import { within } from '../../fs/paths.js';

/**
 * Pins written by versions before the LMDB store (block-storage.ts): one file per pinned CID in
 * `<store>/pins/`. Still listed and removed, never added; the directory may not exist.
 */
export class LegacyPins {
  constructor(private readonly dir: string) {}

  async remove(cid: string): Promise<void> {
    await rm(this.fileFor(cid), { force: true });
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
