import { execFile, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { startService, loopbackEnv } from './service-process.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const EMAIL = 'crash@example.org';
const SWEEP_DONE = 'temp sweep: leftover temp files removed';

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** A file as a killed process left it: written an hour ago. */
async function leftover(path: string, content: string, ageMs = 3_600_000): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content, { mode: 0o600 });
  const at = new Date(Date.now() - ageMs);
  await utimes(path, at, at);
}

describe('after a crash', () => {
  const children: ChildProcess[] = [];
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) await dir.cleanup();
  });

  it('the service removes the temp files of interrupted atomic writes once it listens', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const env = { PATH: process.env.PATH ?? '', HOME: dir.path };
    await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'users', 'add', EMAIL],
      {
        cwd: ROOT,
        env,
      },
    );
    const userDir = join(dir.path, '.zen', 'game', 'nostr', EMAIL);
    const tmpDir = join(dir.path, '.zen', 'tmp');
    const drive = join(userDir, 'APP', 'uDRIVE');
    // Real files, old too: a cookie file and a drive manifest.
    await leftover(join(userDir, '.youtube.com.cookie'), '# Netscape HTTP Cookie File\n');
    await leftover(join(drive, 'manifest.json'), '{}\n');
    const real = await filesUnder(userDir);
    const leftovers = [
      join(drive, '.manifest.json.0123456789ab.tmp'),
      join(userDir, '..youtube.com.cookie.abcdef012345.tmp'),
      join(tmpDir, 'outbox', '.message.eml.a1b2c3d4e5f6.tmp'),
    ];
    for (const path of leftovers) await leftover(path, 'partial');
    // A write still in progress in another process (fresh mtime) is left alone.
    const inProgress = join(drive, '.manifest.json.fedcba987654.tmp');
    await leftover(inProgress, 'partial', 0);

    const service = startService({
      ...loopbackEnv(dir.path),
    });
    children.push(service.child);
    const url = await service.listening;
    const sweepLine = () =>
      service.lines
        .map((line) => {
          try {
            return JSON.parse(line) as { msg?: string; removed?: number; dirs?: string[] };
          } catch {
            return {};
          }
        })
        .find((entry) => entry.msg === SWEEP_DONE);
    await waitFor(() => sweepLine() !== undefined);

    expect(sweepLine()).toMatchObject({ removed: 3, failed: 0 });
    // Neither the cookie's domain nor any file name is logged.
    expect(service.lines.join('\n')).not.toContain('youtube');
    expect(await filesUnder(userDir)).toEqual([...real, relative(userDir, inProgress)].sort());
    expect(await readdir(join(tmpDir, 'outbox'))).toEqual([]);
    const health = async () => (await (await fetch(`${url}/health`)).json()) as { status: string };
    await waitFor(async () => (await health()).status === 'ok');
  });
});
