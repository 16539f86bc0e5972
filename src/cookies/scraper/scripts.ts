import { constants, type Dirent, type Stats } from 'node:fs';
import type * as fsp from 'node:fs/promises';
import { join } from 'node:path';

/** The file-system calls of a scan, injectable so a test can count them. */
export type ScanFs = Pick<typeof fsp, 'readdir' | 'stat' | 'access' | 'readFile'>;

export type ScriptLookup =
  | { kind: 'found'; path: string }
  /** Present but not executable: an operator mistake, so neither run nor reported to users as missing. */
  | { kind: 'not_executable'; path: string }
  | { kind: 'missing' };

/**
 * Finds `<domain>.sh` in the scripts directory, then in its sub-folders in name order
 * (docs/api-contract.md §12); the first executable regular file wins. One instance serves one scan: the
 * sub-folder listing is read once and each domain is looked up once, however many users hold a cookie of it.
 */
export class ScriptFinder {
  private subFolders: Promise<string[]> | null = null;
  private readonly byDomain = new Map<string, Promise<ScriptLookup>>();

  constructor(
    private readonly scriptsDir: string,
    private readonly fs: ScanFs,
  ) {}

  find(domain: string): Promise<ScriptLookup> {
    let found = this.byDomain.get(domain);
    if (!found) {
      found = this.lookup(`${domain}.sh`);
      this.byDomain.set(domain, found);
    }
    return found;
  }

  private async lookup(fileName: string): Promise<ScriptLookup> {
    const candidates = [
      join(this.scriptsDir, fileName),
      ...(await this.folders()).map((d) => join(this.scriptsDir, d, fileName)),
    ];
    let notExecutable: string | null = null;
    for (const path of candidates) {
      const stats: Stats | null = await this.fs.stat(path).catch(() => null);
      if (!stats?.isFile()) continue;
      if (await this.executable(path)) return { kind: 'found', path };
      notExecutable ??= path;
    }
    return notExecutable ? { kind: 'not_executable', path: notExecutable } : { kind: 'missing' };
  }

  private async executable(path: string): Promise<boolean> {
    return this.fs.access(path, constants.X_OK).then(
      () => true,
      () => false,
    );
  }

  private folders(): Promise<string[]> {
    this.subFolders ??= this.fs
      .readdir(this.scriptsDir, { withFileTypes: true })
      .then((entries: Dirent[]) =>
        entries
          .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
          .map((e) => e.name)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      )
      .catch(() => []);
    return this.subFolders;
  }
}
