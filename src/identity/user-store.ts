import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { LatLon } from '../geo/coordinates.js';
import { Conflict } from '../errors.js';
import { within } from '../fs/paths.js';
import { normaliseEmail, requireEmail, requireRegistrationEmail } from './email.js';
import { deriveTwinKeys, randomCredential, type TwinKeys } from './keys.js';
import { readUserDir, writeUserDir, type UserRecord } from './user-files.js';

export type { UserRecord };

export interface NewUser {
  email: string;
  salt?: string | null;
  pepper?: string | null;
  gps?: LatLon | null;
  lang?: string | null;
}

export interface CreatedUser {
  record: UserRecord;
  keys: TwinKeys;
  salt: string;
  pepper: string;
}

/** The narrow read side most routes need. */
export type UserLookup = Pick<UserStore, 'findByEmail' | 'findByHex' | 'dirFor'>;

/**
 * Without a directory watch (unsupported file system, or `watch: false`), an unknown key re-reads every user
 * directory, at most this often, so a flood of bogus keys cannot make us scan repeatedly.
 */
const MISS_RESCAN_INTERVAL_MS = 5_000;

const alreadyRegistered = (email: string) =>
  new Conflict('USER_EXISTS', {
    en: `${email} is already registered.`,
    fr: `L’adresse ${email} est déjà inscrite sur cette station.`,
  });

/**
 * Users live in `DATA_ROOT/nostr/<email>/`. The store keeps an in-memory index (e-mail and hex key) built
 * at start-up, updated on every create, and kept current for directories made by other processes (PM2
 * workers, the CLI, the station's shell tools) through a directory watch.
 */
export class UserStore {
  private readonly byEmail = new Map<string, UserRecord>();
  private readonly byHex = new Map<string, string>();
  private watcher: FSWatcher | null = null;
  private lastRescan = 0;
  private changes = 0;

  private constructor(
    readonly usersRoot: string,
    private readonly uplanetName: string,
    private readonly logger?: Logger,
  ) {}

  static async open(
    dataRoot: string,
    options: { uplanetName: string; logger?: Logger; watch?: boolean },
  ): Promise<UserStore> {
    const store = new UserStore(join(dataRoot, 'nostr'), options.uplanetName, options.logger);
    await mkdir(store.usersRoot, { recursive: true, mode: 0o700 });
    await store.rescan();
    if (options.watch !== false) store.startWatching();
    return store;
  }

  /** Absolute directory of a user; throws 400 for an unusable e-mail, never escapes DATA_ROOT/nostr. */
  dirFor(email: string): string {
    return within(this.usersRoot, requireEmail(email));
  }

  list(): UserRecord[] {
    return [...this.byEmail.values()];
  }

  get size(): number {
    return this.byEmail.size;
  }

  /** Grows whenever a user is added, changed or removed: derived indexes rebuild when it moves. */
  get version(): number {
    return this.changes;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const normalised = normaliseEmail(email);
    if (!normalised) return null;
    return this.byEmail.get(normalised) ?? (await this.load(normalised));
  }

  async findByHex(hex: string): Promise<UserRecord | null> {
    const email = this.byHex.get(hex);
    if (email) return this.byEmail.get(email) ?? null;
    // With the watch running the index is current: an unknown key is unknown, and costs no disk I/O.
    if (this.watcher || Date.now() - this.lastRescan < MISS_RESCAN_INTERVAL_MS) return null;
    await this.rescan();
    const found = this.byHex.get(hex);
    return found ? (this.byEmail.get(found) ?? null) : null;
  }

  async create(input: NewUser): Promise<CreatedUser> {
    const email = requireRegistrationEmail(input.email);
    const target = this.dirFor(email);
    if (await this.findByEmail(email)) throw alreadyRegistered(email);
    const salt = input.salt || randomCredential();
    const pepper = input.pepper || randomCredential();
    const keys = await deriveTwinKeys(salt, pepper, this.uplanetName);
    if (await this.findByHex(keys.nostr.hex)) {
      throw new Conflict('KEY_EXISTS', {
        en: 'These credentials already belong to another registered identity.',
        fr: 'Ces identifiants appartiennent déjà à une autre identité inscrite.',
      });
    }
    // Built under a hidden temporary name and renamed: the directory appears complete or not at all, and the
    // rename fails if another request created the same e-mail meanwhile.
    const staging = join(this.usersRoot, `.new-${randomBytes(8).toString('hex')}`);
    await mkdir(staging, { mode: 0o700 });
    try {
      await writeUserDir(staging, keys, { gps: input.gps ?? null, lang: input.lang ?? null });
      await rename(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') {
        throw alreadyRegistered(email);
      }
      throw error;
    }
    const record: UserRecord = {
      email,
      hex: keys.nostr.hex,
      npub: keys.nostr.npub,
      g1pub: keys.g1.address,
      gps: input.gps ?? null,
    };
    this.remember(record);
    this.logger?.info({ email, hex: record.hex }, 'user created');
    return { record, keys, salt, pepper };
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private remember(record: UserRecord): void {
    const previous = this.byEmail.get(record.email);
    if (previous && previous.hex !== record.hex) this.byHex.delete(previous.hex);
    this.byEmail.set(record.email, record);
    this.byHex.set(record.hex, record.email);
    this.changes++;
  }

  private forget(email: string): void {
    const previous = this.byEmail.get(email);
    if (previous) {
      this.byHex.delete(previous.hex);
      this.byEmail.delete(email);
      this.changes++;
    }
  }

  private async load(email: string): Promise<UserRecord | null> {
    let dir: string;
    try {
      dir = within(this.usersRoot, email);
    } catch {
      return null;
    }
    const record = await readUserDir(dir, email).catch(() => null);
    if (record) this.remember(record);
    else this.forget(email);
    return record;
  }

  private async rescan(): Promise<void> {
    this.lastRescan = Date.now();
    const entries = await readdir(this.usersRoot, { withFileTypes: true });
    const names = entries
      .filter((e) => e.isDirectory() && normaliseEmail(e.name) === e.name)
      .map((e) => e.name);
    // Bounded parallelism: 10,000 users load in well under a second without exhausting file descriptors.
    for (let i = 0; i < names.length; i += 64) {
      await Promise.all(names.slice(i, i + 64).map((name) => this.load(name)));
    }
  }

  private startWatching(): void {
    try {
      this.watcher = watch(this.usersRoot, (_event, name) => {
        if (typeof name !== 'string' || normaliseEmail(name) !== name) return;
        void stat(join(this.usersRoot, name))
          .then(() => this.load(name))
          .catch(() => this.forget(name));
      });
      this.watcher.on('error', (error) => this.logger?.warn({ err: error }, 'user directory watch failed'));
    } catch (error) {
      this.logger?.warn({ err: error }, 'user directory watch unavailable; relying on re-scans');
    }
  }
}
