import { access, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { localTimestamp, type Clock } from '../clock.js';
import { writeFileAtomic } from '../fs/atomic.js';
import type { UserRecord } from '../identity/user-files.js';
import type { DriveReads } from './db/reads.js';
import type { Manifest, ManifestEntry } from './manifest.js';
import { manifestOf } from './reader.js';

/**
 * A drive's `manifest.json` is written this long after its last change: it lists every file, so it is never
 * written on an upload's path.
 */
export const EXPORT_DELAY_MS = 1_000;

/** While changes keep coming, it is still written this long after the first one it waits for. */
export const EXPORT_MAX_DELAY_MS = 10_000;

const utf8 = new TextEncoder();

/** The start of a file (where an export names its root), or '' when there is none. */
async function readStart(path: string): Promise<string> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return '';
  try {
    const bytes = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return bytes.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** One file per line, so that it stays easy to read and grep (station scripts read it). */
export function manifestText(manifest: Manifest): string {
  const { files, ...rest } = manifest;
  const head = JSON.stringify({ ...rest, exported_from: 'index' }).slice(0, -1);
  const lines =
    files.length > 0 ? `\n${files.map((f: ManifestEntry) => JSON.stringify(f)).join(',\n')}\n` : '';
  return `${head},"files":[${lines}]}\n`;
}

/**
 * Writes each changed drive's `APP/uDRIVE/manifest.json` from the index, after a quiet second (at the latest
 * every ten while changes keep coming), and at close. It is an export for the station's shell tools and
 * people reading the folder: never read back as the truth (docs/data-layout.md). Any process may write it;
 * each writes a whole snapshot, atomically, so the file is always one state the drive was in.
 */
export class ManifestExports {
  private readonly pending = new Map<
    string,
    { user: Pick<UserRecord, 'email' | 'hex'>; timer: NodeJS.Timeout; since: number }
  >();

  constructor(
    private readonly deps: {
      reads: DriveReads;
      driveDir: (user: Pick<UserRecord, 'email'>) => string;
      clock: Clock;
      logger: Pick<Logger, 'warn'>;
    },
  ) {}

  soon(user: Pick<UserRecord, 'email' | 'hex'>): void {
    const pending = this.pending.get(user.hex);
    const now = performance.now();
    const since = pending?.since ?? now;
    const delay = Math.max(0, Math.min(EXPORT_DELAY_MS, since + EXPORT_MAX_DELAY_MS - now));
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => void this.write(user.hex), delay);
    timer.unref();
    this.pending.set(user.hex, { user: { email: user.email, hex: user.hex }, timer, since });
  }

  /** Every pending export, now (on close). */
  async all(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((hex) => this.write(hex)));
  }

  /** Writes one drive's export now. */
  async writeNow(user: Pick<UserRecord, 'email' | 'hex'>): Promise<void> {
    const { reads } = this.deps;
    const at = localTimestamp(this.deps.clock.now());
    const manifest = reads.snapshot((read) => {
      const head = reads.head(user.hex, read);
      return head ? manifestOf(user, head, reads.entries(user.hex, read), at) : null;
    });
    if (!manifest) return;
    const path = join(this.deps.driveDir(user), 'manifest.json');
    // A drive whose folder is gone (its user removed) is not made again.
    if (
      !(await access(dirname(path)).then(
        () => true,
        () => false,
      ))
    )
      return;
    await writeFileAtomic(path, utf8.encode(manifestText(manifest)), { mode: 0o644 });
  }

  /**
   * Writes the drive's export again when it does not name the drive's current root (a process killed within
   * a second of a change, before its export): at start, once per drive.
   */
  async refresh(user: Pick<UserRecord, 'email' | 'hex'>): Promise<void> {
    const head = this.deps.reads.head(user.hex);
    if (!head) return;
    const path = join(this.deps.driveDir(user), 'manifest.json');
    const start = await readStart(path);
    const named = /"root_cid":("[^"]*"|null)/.exec(start)?.[1];
    if (named !== JSON.stringify(head.root)) await this.writeNow(user);
  }

  private async write(hex: string): Promise<void> {
    const pending = this.pending.get(hex);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(hex);
    await this.writeNow(pending.user).catch((error: unknown) =>
      this.deps.logger.warn({ err: error, email: pending.user.email }, 'drive: manifest.json not written'),
    );
  }
}
