import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock } from '../../../src/clock.js';
import { runScan, type ScanDeps, type ScanSummary } from '../../../src/cookies/scraper/scan.js';
import type { CookieFileFilter } from '../../../src/cookies/scraper/cookie-files.js';
import type { Mailer, OutgoingMail } from '../../../src/mail/mailer.js';
import { ManualClock } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';

/** 2026-11-22 20:12 local time: the default SCRAPER_AT of a Sunday. */
export const SCAN_TIME = new Date(2026, 10, 22, 20, 12).getTime();
export const FAR_FUTURE = 4102444800; // 2100-01-01

export function cookieText(domain: string, expiries: number[] = [FAR_FUTURE]): string {
  const lines = expiries.map((expiry, i) =>
    [`.${domain}`, 'TRUE', '/', 'TRUE', String(expiry), `c${i}`, `v${i}`].join('\t'),
  );
  return ['# Netscape HTTP Cookie File', ...lines, ''].join('\n');
}

/** Whether a path exists (markers, notices), without throwing. */
export const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

export interface ScanFixture {
  root: string;
  dataRoot: string;
  tmpDir: string;
  scriptsDir: string;
  /** Scripts write what they observe here (`$OUT`). */
  outDir: string;
  clock: ManualClock;
  userDir(email: string): string;
  addUser(email: string): Promise<string>;
  writeCookie(email: string, domain: string, content?: string): Promise<string>;
  /** Writes `SCRIPTS_DIR/<relative>`, executable unless said otherwise. */
  writeScript(relative: string, body: string, executable?: boolean): Promise<string>;
  scan(
    mailer: Pick<Mailer, 'send'>,
    overrides?: Partial<ScanDeps>,
    only?: CookieFileFilter,
  ): Promise<ScanSummary>;
  /** Lines the scripts appended to `$OUT/<name>`. */
  out(name: string): Promise<string[]>;
  cleanup(): Promise<void>;
}

export async function createScanFixture(
  options: { timeoutSeconds?: number; concurrency?: number; captainEmail?: string | null } = {},
): Promise<ScanFixture> {
  const dir = await tempDir('scraper-');
  const dataRoot = join(dir.path, 'game');
  const tmpDir = join(dir.path, 'tmp');
  const scriptsDir = join(dir.path, 'scripts');
  const outDir = join(dir.path, 'out');
  await Promise.all([mkdir(join(dataRoot, 'nostr'), { recursive: true }), mkdir(scriptsDir), mkdir(outDir)]);
  const clock = new ManualClock(SCAN_TIME);
  const userDir = (email: string) => join(dataRoot, 'nostr', email);
  const config: ScanDeps['config'] = {
    dataRoot,
    tmpDir,
    scriptsDir,
    captainEmail: options.captainEmail === undefined ? 'captain@example.net' : options.captainEmail,
    scraperTimeoutSeconds: options.timeoutSeconds ?? 60,
    scraperConcurrency: options.concurrency ?? 2,
  };
  return {
    root: dir.path,
    dataRoot,
    tmpDir,
    scriptsDir,
    outDir,
    clock,
    userDir,
    async addUser(email) {
      await mkdir(userDir(email), { recursive: true, mode: 0o700 });
      await writeFile(join(userDir(email), 'HEX'), 'ab'.repeat(32));
      return userDir(email);
    },
    async writeCookie(email, domain, content = cookieText(domain)) {
      const path = join(userDir(email), `.${domain}.cookie`);
      // A new file each time, as cookie intake does (temp + rename).
      await writeFile(`${path}.new`, content, { mode: 0o600 });
      await rename(`${path}.new`, path);
      return path;
    },
    async writeScript(relative, body, executable = true) {
      const path = join(scriptsDir, relative);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      await chmod(path, executable ? 0o755 : 0o644);
      return path;
    },
    scan(mailer, overrides = {}, only = {}) {
      const clockUsed: Clock = overrides.clock ?? clock;
      return runScan(
        {
          config,
          mailer,
          clock: clockUsed,
          scriptEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', OUT: outDir },
          killGraceMs: 500,
          ...overrides,
        },
        only,
      );
    },
    async out(name) {
      const text = await readFile(join(outDir, name), 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean);
    },
    cleanup: () => dir.cleanup(),
  };
}

/** A script recording `<script name> <email> <cookie path>` in `$OUT/runs`, and a line on stdout. */
export const recordingScript = (name: string) => `#!/bin/sh
echo "${name} $1 $2" >> "$OUT/runs"
echo "hello from ${name} for $1"
`;

/** Records mails instead of sending them; runs in this file must not mail anyone. */
export function recordingMailer(): Pick<Mailer, 'send'> & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    send: async (mail) => {
      sent.push(mail);
      return { accepted: true, messageId: `<${sent.length}@test>` };
    },
  };
}
