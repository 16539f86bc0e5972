import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moveFile, writeFileAtomic, writeStreamAtomic } from '../../src/fs/atomic.js';
import { tempDir } from '../helpers/temp.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('atomic writes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('atomic-');
  });
  afterEach(() => dir.cleanup());

  it('streams into a temp file that is mode 600 from creation, then replaces the target', async () => {
    const target = join(dir.path, '.example.org.cookie');
    await writeFile(target, 'old', { mode: 0o600 });
    const seen: Array<{ names: string[]; modes: number[] }> = [];
    async function* source() {
      yield Buffer.from('first ');
      // Between two writes: the temp file exists beside the target, private, and the target is unchanged.
      const names = (await readdir(dir.path)).filter((name) => name.endsWith('.tmp'));
      seen.push({ names, modes: await Promise.all(names.map((name) => modeOf(join(dir.path, name)))) });
      expect(await readFile(target, 'utf8')).toBe('old');
      yield Buffer.from('second');
    }
    await writeStreamAtomic(target, source(), { mode: 0o600 });
    expect(seen).toEqual([
      { names: [expect.stringMatching(/^\.\.example\.org\.cookie\..*\.tmp$/)], modes: [0o600] },
    ]);
    expect(await readFile(target, 'utf8')).toBe('first second');
    expect(await modeOf(target)).toBe(0o600);
    expect(await readdir(dir.path)).toEqual(['.example.org.cookie']);
  });

  it('keeps the previous file and leaves no temp file when the source fails', async () => {
    const target = join(dir.path, 'data.json');
    await writeFileAtomic(target, '{"v":1}');
    async function* broken() {
      yield Buffer.from('{"v":');
      throw new Error('source broke');
    }
    await expect(writeStreamAtomic(target, broken())).rejects.toThrow('source broke');
    expect(await readFile(target, 'utf8')).toBe('{"v":1}');
    expect(await readdir(dir.path)).toEqual(['data.json']);
    expect(await modeOf(target)).toBe(0o644);
  });

  it('moves a file by renaming it, and across file systems by a private copy renamed in', async () => {
    const same = join(dir.path, 'staged');
    await writeFile(same, 'secret', { mode: 0o600 });
    await moveFile(same, join(dir.path, 'placed'), 0o600);
    expect(await readdir(dir.path)).toEqual(['placed']);
    // /dev/shm is a tmpfs here, another file system than the temp directory: rename fails with EXDEV.
    const [shm, here] = await Promise.all([stat('/dev/shm').catch(() => null), stat(dir.path)]);
    if (!shm || shm.dev === here.dev) return;
    const elsewhere = await mkdtemp('/dev/shm/move-');
    try {
      const source = join(elsewhere, 'staged');
      await writeFile(source, 'other file system', { mode: 0o644 });
      const target = join(dir.path, 'placed');
      await moveFile(source, target, 0o600);
      expect(await readFile(target, 'utf8')).toBe('other file system');
      expect(await modeOf(target)).toBe(0o600);
      expect(await readdir(elsewhere)).toEqual([]);
      expect(await readdir(dir.path)).toEqual(['placed']);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
