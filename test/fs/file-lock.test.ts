import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLocks, type FileLockOptions } from '../../src/fs/file-lock.js';
import { tempDir } from '../helpers/temp.js';

const options = { staleMs: 5_000, retries: { retries: 3, minTimeout: 5, maxTimeout: 10 } };
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A lock kept for a minute and refreshed every second (proper-lockfile's shortest), made by `make`; what
 * proper-lockfile reports as lost is collected.
 */
function refreshedLease(make: (extra: Partial<FileLockOptions>) => FileLocks) {
  const compromised: Error[] = [];
  const locks = make({
    staleMs: 2_000,
    updateMs: 1_000,
    lease: { idleMs: 60_000, maxMs: 60_000, yieldMs: 40 },
    onCompromised: (error) => compromised.push(error),
  });
  return { locks, compromised };
}

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

describe('FileLocks with a lease', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => dir.cleanup());

  const lease = { idleMs: 60, maxMs: 80, yieldMs: 40 };
  const leased = (extra: Partial<FileLockOptions> = {}) =>
    new FileLocks({
      ...options,
      retries: { retries: 400, minTimeout: 2, maxTimeout: 10 },
      lease,
      markWaiting: true,
      ...extra,
    });
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  /** Polls (bounded) until `check` holds; the test asserts what was reached, never how fast. */
  async function eventually(check: () => Promise<boolean>, tries = 400): Promise<boolean> {
    for (let i = 0; i < tries; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return check();
  }

  it('keeps the lock between sections in one tenure, gives it back once idle, and takes a new tenure after', async () => {
    const locks = leased();
    const path = join(dir.path, 'drive.lock');
    const first = await locks.run(path, async (tenure) => tenure);
    expect(await exists(path)).toBe(true); // still held: no section ran since
    expect(await locks.run(path, async (tenure) => tenure)).toBe(first);
    expect(await eventually(async () => !(await exists(path)))).toBe(true);
    const after = await locks.run(path, async (tenure) => tenure);
    expect(after).not.toBe(first);
    await locks.close();
    expect(await exists(path)).toBe(false);
  });

  it('lets a waiting process in while the holder keeps the lock busy, and each sees the other out', async () => {
    const holder = leased({ lease: { idleMs: 10_000, maxMs: 80, yieldMs: 40 } });
    const waiter = new FileLocks({
      ...options,
      retries: { retries: 2_000, minTimeout: 2, maxTimeout: 10 },
      markWaiting: true,
    });
    const path = join(dir.path, 'drive.lock');
    let inside = 0;
    let most = 0;
    const section = async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inside -= 1;
    };
    const tenures = new Set<number>();
    await holder.run(path, async (tenure) => {
      tenures.add(tenure);
      await section();
    });
    let waited = false;
    const waiting = waiter.run(path, section).then(() => (waited = true));
    // The holder never goes idle; it still yields after maxMs, since the waiter marked the lock as wanted:
    // the waiter gets in while the holder is still busy, not once it stops.
    const ROUNDS = 2_000;
    let rounds = 0;
    for (; rounds < ROUNDS && !waited; rounds++)
      await holder.run(path, async (tenure) => {
        tenures.add(tenure);
        await section();
      });
    expect(rounds).toBeLessThan(ROUNDS);
    await waiting;
    expect(waited).toBe(true);
    expect(most).toBe(1);
    // The holder took the lock again after its turn: a new tenure, whose sections must read the disk again.
    await holder.run(path, async (tenure) => tenures.add(tenure));
    expect(tenures.size).toBeGreaterThan(1);
    await holder.close();
    expect(await exists(path)).toBe(false);
  });

  it('takes a new tenure after its lock was taken away while kept', async () => {
    const { locks, compromised } = refreshedLease(leased);
    const path = join(dir.path, 'drive.lock');
    const first = await locks.run(path, async (tenure) => tenure);
    await rmdir(path); // removed by hand while the lease kept it
    expect(await eventually(async () => compromised.length > 0, 500)).toBe(true);
    const second = await locks.run(path, async (tenure) => tenure);
    expect(second).not.toBe(first);
    expect(await exists(path)).toBe(true);
    await locks.close();
    expect(await exists(path)).toBe(false);
  });
});

describe('FileLocks naming their holder', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => dir.cleanup());

  const bootId = () => readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((text) => text.trim());
  /** A lock held, by its mtime, by a live process: `pid` named as its holder. */
  async function heldBy(path: string, holder: string) {
    await mkdir(path);
    await writeFile(join(path, 'holder'), holder);
  }
  const once = { ...options, retries: { retries: 0, minTimeout: 5, maxTimeout: 10 }, namesHolder: true };

  it('takes at once a lock whose holder, a process of this boot, is gone; waits for a live or unknown one', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    const locks = new FileLocks(once);
    const path = join(dir.path, 'drive.lock');
    await heldBy(path, `${await bootId()}:${deadPid}`);
    expect(await locks.run(path, async () => readFile(join(path, 'holder'), 'utf8'))).toBe(
      `${await bootId()}:${process.pid}`,
    );
    // Released: the directory goes with the name in it.
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    for (const holder of [`${await bootId()}:${process.ppid}`, `another-boot:${deadPid}`, '']) {
      await heldBy(path, holder);
      await expect(locks.run(path, async () => 'never')).rejects.toMatchObject({ code: 'ELOCKED' });
      await rm(path, { recursive: true });
    }
  });

  it('keeps a named lock through its refreshes without taking it for lost', async () => {
    const { locks, compromised } = refreshedLease((extra) => new FileLocks({ ...once, ...extra }));
    const path = join(dir.path, 'drive.lock');
    const first = await locks.run(path, async (tenure) => tenure);
    expect(await readFile(join(path, 'holder'), 'utf8')).toBe(`${await bootId()}:${process.pid}`);
    // proper-lockfile refreshes the lock's mtime and checks it is still the one it set: twice over.
    const mtimes = new Set<number>();
    for (let i = 0; i < 600 && mtimes.size < 3; i++) {
      mtimes.add((await stat(path)).mtimeMs);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(mtimes.size).toBeGreaterThanOrEqual(3);
    expect(compromised).toEqual([]);
    expect(await locks.run(path, async (tenure) => tenure)).toBe(first);
    await locks.close();
  });

  it('lets another process take over its lock once stale, the name inside it notwithstanding', async () => {
    const path = join(dir.path, 'drive.lock');
    await heldBy(path, `${await bootId()}:${process.ppid}`);
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    expect(await new FileLocks(once).run(path, async () => 'taken over')).toBe('taken over');
  });
});
