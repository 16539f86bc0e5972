import { mkdir, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEMP_NAME, tempPathFor } from '../../src/fs/atomic.js';
import { sweepTempFiles, type SweepOptions } from '../../src/fs/sweep.js';
import { tempDir } from '../helpers/temp.js';

/** Lets a test act as another process between the sweep's steps. */
const hooks = vi.hoisted(() => ({
  beforeOpendir: undefined as ((path: string) => Promise<void> | undefined) | undefined,
  beforeLstat: undefined as ((path: string) => Promise<void> | undefined) | undefined,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    opendir: async (path: string, ...rest: []) => {
      await hooks.beforeOpendir?.(path);
      return actual.opendir(path, ...rest);
    },
    lstat: async (path: string, ...rest: []) => {
      await hooks.beforeLstat?.(path);
      return actual.lstat(path, ...rest);
    },
  };
});

const HOUR_MS = 3_600_000;
const NOW = Date.UTC(2025, 0, 15, 12);

interface LogLine {
  level: 'info' | 'warn' | 'debug';
  fields: Record<string, unknown>;
  msg: string;
}

function recordingLogger() {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (fields: Record<string, unknown>, msg: string): void => {
      lines.push({ level, fields, msg });
    };
  return {
    lines,
    logger: { info: at('info'), warn: at('warn'), debug: at('debug') } as unknown as SweepOptions['logger'],
  };
}

/** A file whose mtime is `ageMs` before NOW. */
async function fileAged(path: string, ageMs: number, content = 'x'): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  const at = new Date(NOW - ageMs);
  await utimes(path, at, at);
  return path;
}

describe('sweepTempFiles', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let log: ReturnType<typeof recordingLogger>;
  const sweep = (roots: Parameters<typeof sweepTempFiles>[0], extra: Partial<SweepOptions> = {}) =>
    sweepTempFiles(roots, {
      olderThanMs: 10 * 60_000,
      clock: { now: () => NOW },
      logger: log.logger,
      ...extra,
    });

  beforeEach(async () => {
    dir = await tempDir('sweep-');
    log = recordingLogger();
  });
  afterEach(async () => {
    hooks.beforeOpendir = hooks.beforeLstat = undefined;
    await dir.cleanup();
  });

  it('matches exactly the names tempPathFor gives', () => {
    expect(TEMP_NAME.test(tempPathFor('/x/.manifest.json').split('/').pop()!)).toBe(true);
    expect(TEMP_NAME.test(tempPathFor('/x/.youtube.com.cookie').split('/').pop()!)).toBe(true);
  });

  it('removes old temp files at any depth, keeps recent ones and every other name', async () => {
    const drive = join(dir.path, 'nostr', 'a@b.org', 'APP', 'uDRIVE');
    const user = join(dir.path, 'nostr', 'a@b.org');
    const old = [
      join(drive, '.manifest.json.0123456789ab.tmp'),
      join(user, '..youtube.com.cookie.abcdef012345.tmp'),
      join(drive, '.journal', '.0011223344556677.json.a1b2c3d4e5f6.tmp'),
    ];
    for (const path of old) await fileAged(path, HOUR_MS);
    const kept = [
      await fileAged(join(drive, '.manifest.json.fedcba987654.tmp'), 60_000), // a write in progress
      await fileAged(join(drive, '.manifest.json'), HOUR_MS),
      await fileAged(join(drive, 'manifest.json'), HOUR_MS),
      await fileAged(join(drive, '.journal', '0011223344556677.json'), HOUR_MS),
      await fileAged(join(drive, 'Documents', 'x.tmp'), HOUR_MS),
      await fileAged(join(drive, 'Documents', '.a.b.tmp'), HOUR_MS),
      await fileAged(join(drive, 'Documents', '.a.0123456789AB.tmp'), HOUR_MS), // upper-case: not ours
      await fileAged(join(drive, 'Documents', '.a.0123456789a.tmp'), HOUR_MS), // 11 hex
      await fileAged(join(drive, 'Documents', '.0123456789ab.tmp'), HOUR_MS), // no base name
      await fileAged(join(user, '.youtube.com.cookie'), HOUR_MS),
    ];
    // A directory with a temp-like name is not a temp file.
    await mkdir(join(drive, '.dir.0123456789ab.tmp'));

    const result = await sweep([join(dir.path, 'nostr')]);

    expect(result).toMatchObject({ removed: 3, failed: 0 });
    for (const path of old)
      await expect(readdir(join(path, '..'))).resolves.not.toContain(path.split('/').pop());
    for (const path of kept)
      await expect(readdir(join(path, '..'))).resolves.toContain(path.split('/').pop());
    expect(await readdir(drive)).toContain('.dir.0123456789ab.tmp');
  });

  it('logs one info line with counts and directories, never a file name', async () => {
    const user = join(dir.path, 'u');
    await fileAged(join(user, '..youtube.com.cookie.abcdef012345.tmp'), HOUR_MS, 'secret-cookie-value');
    await sweep([user]);
    expect(log.lines).toEqual([
      {
        level: 'info',
        fields: expect.objectContaining({ removed: 1, dirs: [user] }),
        msg: expect.any(String),
      },
    ]);
    const text = JSON.stringify(log.lines);
    expect(text).not.toContain('youtube');
    expect(text).not.toContain('secret-cookie-value');
  });

  it('does not follow symbolic links, to directories or files, nor a root that is one', async () => {
    const outside = join(dir.path, 'outside');
    const target = await fileAged(join(outside, '.manifest.json.0123456789ab.tmp'), HOUR_MS);
    const root = join(dir.path, 'root');
    await mkdir(root);
    await symlink(outside, join(root, 'linked-dir'));
    await symlink(target, join(root, '.linked.0123456789ab.tmp'));
    await symlink(outside, join(dir.path, 'root-link'));

    const result = await sweep([root, join(dir.path, 'root-link')]);

    expect(result.removed).toBe(0);
    expect(await readdir(outside)).toEqual(['.manifest.json.0123456789ab.tmp']);
    expect((await readdir(root)).sort()).toEqual(['.linked.0123456789ab.tmp', 'linked-dir']);
  });

  it('stops at maxDepth', async () => {
    const deep = await fileAged(join(dir.path, 'a', 'b', '.f.0123456789ab.tmp'), HOUR_MS);
    const shallow = await fileAged(join(dir.path, 'a', '.f.0123456789ab.tmp'), HOUR_MS);
    expect((await sweep([{ dir: dir.path, maxDepth: 1 }])).removed).toBe(1);
    expect(await readdir(join(deep, '..'))).toEqual(['.f.0123456789ab.tmp']);
    expect(await readdir(join(shallow, '..'))).toEqual(['b']);
  });

  it('goes on past directories and files that vanish mid-walk, and roots that do not exist', async () => {
    const root = join(dir.path, 'root');
    const gone = join(root, 'gone');
    await fileAged(join(gone, '.f.0123456789ab.tmp'), HOUR_MS);
    const raced = await fileAged(join(root, 'raced', '.f.0123456789ab.tmp'), HOUR_MS);
    const kept = await fileAged(join(root, 'kept', '.f.0123456789ab.tmp'), HOUR_MS);
    // Another process removes `gone` once it is listed, before it is read, and `raced`'s file before its stat.
    hooks.beforeOpendir = (path) => (path === gone ? rm(gone, { recursive: true }) : undefined);
    hooks.beforeLstat = (path) => (path === raced ? rm(raced) : undefined);

    const result = await sweep([join(dir.path, 'missing'), root]);

    expect(result).toMatchObject({ removed: 1, failed: 0 });
    expect(await readdir(join(kept, '..'))).toEqual([]);
    expect(log.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('logs a directory or file it may not read or remove, and goes on with the others', async () => {
    const locked = join(dir.path, 'locked');
    const lockedFile = await fileAged(join(dir.path, 'shut', '.f.0123456789ab.tmp'), HOUR_MS);
    await fileAged(join(locked, '.f.0123456789ab.tmp'), HOUR_MS);
    const open = await fileAged(join(dir.path, 'open', '.f.0123456789ab.tmp'), HOUR_MS);
    const denied = () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' }));
    // Simulated: the tests may run as root, who reads everything.
    hooks.beforeOpendir = (path) => (path === locked ? denied() : undefined);
    hooks.beforeLstat = (path) => (path === lockedFile ? denied() : undefined);

    const result = await sweep([dir.path]);

    expect(result).toMatchObject({ removed: 1, failed: 2 });
    expect(log.lines.filter((line) => line.level === 'warn').map((line) => line.fields)).toEqual([
      expect.objectContaining({ code: 'EACCES' }),
      expect.objectContaining({ code: 'EACCES' }),
    ]);
    expect(await readdir(join(open, '..'))).toEqual([]);
    expect(await readdir(locked)).toEqual(['.f.0123456789ab.tmp']);
  });

  it('stops when its signal is aborted', async () => {
    await fileAged(join(dir.path, '.f.0123456789ab.tmp'), HOUR_MS);
    const result = await sweep([dir.path], { signal: AbortSignal.abort() });
    expect(result.removed).toBe(0);
  });
});
