import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT, ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import type { LatLon } from '../../src/geo/coordinates.js';
import { UserStore } from '../../src/identity/user-store.js';
import { tempDir } from '../helpers/temp.js';

export const SCRIPTS = join(PROJECT_ROOT, 'scripts');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a shipped script the way the scheduler does: no shell, TMP_DIR as working directory, a bounded time. */
export function runScript(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      join(SCRIPTS, name),
      args,
      { env, cwd: env.TMP_DIR ?? PROJECT_ROOT, timeout: 90_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(error);
          return;
        }
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * A station on temporary directories: DATA_ROOT with real users made by UserStore, TMP_DIR, and the
 * environment the scheduler gives a scraper script (STATION_CLI runs the real CLI from the sources).
 */
export interface TestStation {
  root: string;
  dataRoot: string;
  tmpDir: string;
  binDir: string;
  env: NodeJS.ProcessEnv;
  addUser(email: string, gps?: LatLon): Promise<string>;
  writeCookie(email: string, domain: string, content: string): Promise<string>;
  driveFiles(email: string, category: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function createStation(): Promise<TestStation> {
  const dir = await tempDir('station-scripts-');
  const dataRoot = join(dir.path, 'game');
  const tmpDir = join(dir.path, 'tmp');
  const binDir = join(dir.path, 'bin');
  await Promise.all([mkdir(tmpDir, { recursive: true }), mkdir(binDir)]);
  const users = await UserStore.open(dataRoot, { uplanetName: ORIGIN_UPLANETNAME, watch: false });
  const env: NodeJS.ProcessEnv = {
    PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dir.path,
    LANG: 'C.UTF-8',
    DATA_ROOT: dataRoot,
    TMP_DIR: tmpDir,
    SCRIPTS_DIR: SCRIPTS,
    STATION_URL: 'http://127.0.0.1:9',
    // The tsx loader by absolute URL: scripts run with TMP_DIR as working directory, where a bare `tsx`
    // specifier would not resolve.
    STATION_CLI: `${process.execPath} --import ${import.meta.resolve('tsx')} ${join(PROJECT_ROOT, 'src', 'cli', 'main.ts')}`,
    LOG_LEVEL: 'warn',
  };
  return {
    root: dir.path,
    dataRoot,
    tmpDir,
    binDir,
    env,
    async addUser(email, gps) {
      const created = await users.create({ email, gps: gps ?? null });
      return users.dirFor(created.record.email);
    },
    async writeCookie(email, domain, content) {
      const path = join(users.dirFor(email), `.${domain}.cookie`);
      await writeFile(path, content, { mode: 0o600 });
      return path;
    },
    async driveFiles(email, category) {
      const names = await readdir(join(users.dirFor(email), 'APP', 'uDRIVE', category));
      return names.filter((name) => !name.startsWith('.')).sort();
    },
    async close() {
      users.close();
      await dir.cleanup();
    },
  };
}

/** Writes an executable file (a stand-in tool) into the station's bin directory. */
export async function writeExecutable(station: TestStation, name: string, source: string): Promise<string> {
  const path = join(station.binDir, name);
  await writeFile(path, source);
  await chmod(path, 0o755);
  return path;
}

/** One Netscape cookie line; expiry in Unix seconds (0 = session cookie). */
export function cookieLine(domain: string, name: string, value: string, expiry = 4102444800): string {
  const subdomains = domain.startsWith('.') ? 'TRUE' : 'FALSE';
  return [domain, subdomains, '/', 'TRUE', String(expiry), name, value].join('\t');
}

export function netscapeFile(lines: string[]): string {
  return ['# Netscape HTTP Cookie File', '', ...lines, ''].join('\n');
}
