import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKPOINT_DELAY_MS, CHECKPOINT_MAX_DELAY_MS, Checkpoints } from '../../src/drive/checkpoints.js';
import { commitChange, LOG_NAME, loadDrive } from '../../src/drive/manifest-log.js';
import { openDescriptorsOn } from '../helpers/open-files.js';
import { ENTRY_TIME as at, imageEntry, treeOf } from './manifest-entries.js';

describe('drive checkpoints: when a log is folded into manifest.json', () => {
  let dir: string;
  let folds: string[];
  let checkpoints: Checkpoints;
  const owner = { email: 'a@example.org', hex: 'a'.repeat(64) };
  /** Advances the clock, then lets a fold that fell due finish its file-system check (real I/O). */
  const advance = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let i = 0; i < 5; i++) await access(dir);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'checkpoints-'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    folds = [];
    const locks = {
      run: async <T>(driveDir: string, critical: (tenure: number) => Promise<T>) => {
        folds.push(driveDir);
        return critical(0);
      },
    };
    checkpoints = new Checkpoints(locks, pino({ level: 'silent' }), () => '2026-11-25 00:00:00');
  });

  afterEach(async () => {
    vi.useRealTimers();
    await rm(dir, { recursive: true, force: true });
  });

  it('folds a drive once it has been quiet for a second, once for a burst of changes', async () => {
    const manifest = join(dir, 'manifest.json');
    for (let i = 0; i < 5; i++) {
      checkpoints.soon(manifest, owner);
      await advance(CHECKPOINT_DELAY_MS / 2);
    }
    expect(folds).toHaveLength(0);
    await advance(CHECKPOINT_DELAY_MS);
    expect(folds).toEqual([dir]);
  });

  it('folds a drive in steady use at the latest after the longest delay, then starts again', async () => {
    const manifest = join(dir, 'manifest.json');
    const step = CHECKPOINT_DELAY_MS / 4;
    for (let elapsed = 0; elapsed < CHECKPOINT_MAX_DELAY_MS - step; elapsed += step) {
      checkpoints.soon(manifest, owner);
      await advance(step);
    }
    expect(folds).toHaveLength(0);
    for (let elapsed = 0; elapsed < 2 * step; elapsed += step) {
      checkpoints.soon(manifest, owner);
      await advance(step);
    }
    expect(folds).toHaveLength(1);
    // The next change waits for a quiet second again.
    checkpoints.soon(manifest, owner);
    await advance(CHECKPOINT_DELAY_MS - 1);
    expect(folds).toHaveLength(1);
    await advance(1);
    expect(folds).toHaveLength(2);
  });

  it('folds every pending drive at once when asked (on close)', async () => {
    checkpoints.soon(join(dir, 'manifest.json'), owner);
    await checkpoints.all();
    expect(folds).toEqual([dir]);
    await advance(CHECKPOINT_MAX_DELAY_MS);
    expect(folds).toHaveLength(1);
  });
});

describe('a drive removed before its checkpoint', () => {
  const owner = { email: 'b@example.org', hex: 'b'.repeat(64) };
  it('lets go of the log this process kept open for it, without taking its lock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'checkpoints-removed-'));
    const manifest = join(dir, 'manifest.json');
    const tenure = 7;
    await commitChange(
      manifest,
      await loadDrive(manifest, owner, at, tenure),
      { add: [imageEntry('Images/a.jpg')], tree: treeOf('QmR') },
      tenure,
    );
    const log = join(dir, LOG_NAME);
    expect(await openDescriptorsOn(log)).toBe(1);
    await rm(dir, { recursive: true, force: true });
    expect(await openDescriptorsOn(log)).toBe(1);
    const locked: string[] = [];
    const checkpoints = new Checkpoints(
      {
        run: async <T>(driveDir: string, critical: (tenure: number) => Promise<T>) => {
          locked.push(driveDir);
          return critical(tenure);
        },
      },
      pino({ level: 'silent' }),
      () => at,
    );
    checkpoints.soon(manifest, owner);
    await checkpoints.all();
    expect(await openDescriptorsOn(log)).toBe(0);
    expect(locked).toEqual([]);
  });
});
