import { mkdir, rm, rmdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLocks } from '../../src/fs/file-lock.js';
import { tempDir } from '../helpers/temp.js';

const options = { staleMs: 5_000, retries: { retries: 3, minTimeout: 5, maxTimeout: 10 } };
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('FileLocks', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => dir.cleanup());

  it('runs the sections of one key one at a time, in order, and those of other keys meanwhile', async () => {
    const locks = new FileLocks(options);
    const inside = new Map<string, number>();
    const most = new Map<string, number>();
    const order: number[] = [];
    const section = (key: string, n: number) =>
      locks.run(join(dir.path, `${key}.lock`), async () => {
        inside.set(key, (inside.get(key) ?? 0) + 1);
        most.set(key, Math.max(most.get(key) ?? 0, inside.get(key)!));
        await turn();
        if (key === 'a') order.push(n);
        inside.set(key, inside.get(key)! - 1);
        return n;
      });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) => section(n % 2 === 0 ? 'a' : 'b', n)),
    );
    expect(results).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(most.get('a')).toBe(1);
    expect(most.get('b')).toBe(1);
    expect(order).toEqual(Array.from({ length: 20 }, (_, n) => 2 * n));
  });

  it('makes the folder of a lock when asked to (the first change of a drive), and only then', async () => {
    const folder = join(dir.path, 'new', 'drive');
    await expect(new FileLocks(options).run(join(folder, '.lock'), async () => 1)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    const making = new FileLocks({ ...options, makeParent: true });
    expect(await making.run(join(folder, '.lock'), async () => 2)).toBe(2);
    expect((await stat(folder)).isDirectory()).toBe(true);
    // Removed meanwhile (a user deleted): made again.
    await rm(join(dir.path, 'new'), { recursive: true });
    expect(await making.run(join(folder, '.lock'), async () => 3)).toBe(3);
  });

  it('lets the next section run after one that failed, and leaves no lock behind', async () => {
    const locks = new FileLocks(options);
    const path = join(dir.path, 'x.lock');
    const failing = locks.run(path, async () => {
      throw new Error('boom');
    });
    const next = locks.run(path, async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over a lock whose holder died, and gives up on a live one with ELOCKED', async () => {
    const locks = new FileLocks(options);
    const path = join(dir.path, 'held.lock');
    // Another process's lock, refreshed a minute ago: its holder is gone.
    await mkdir(path);
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    expect(await locks.run(path, async () => 'taken over')).toBe('taken over');
    // A fresh one: held by a live process.
    await mkdir(path);
    await expect(locks.run(path, async () => 'never')).rejects.toMatchObject({ code: 'ELOCKED' });
  });

  it('waits for a lock another process holds and takes it once released', async () => {
    const locks = new FileLocks({ ...options, retries: { retries: 50, minTimeout: 5, maxTimeout: 10 } });
    const path = join(dir.path, 'busy.lock');
    await mkdir(path); // held by a live process
    let ran = false;
    const waiting = locks.run(path, async () => (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ran).toBe(false);
    await rmdir(path); // its holder is done
    expect(await waiting).toBe(true);
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
