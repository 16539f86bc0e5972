import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { MirrorTimeoutError, MirrorTooSlowError } from '../../../src/drive/blossom/public-fetch.js';
import { TransferWatch } from '../../../src/drive/blossom/transfer-watch.js';

/** The deadline and the sliding rate window, on a fake clock: outcomes only, no real waiting. */
describe('TransferWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const URL = 'https://origin.example/blob';

  it('aborts with MIRROR_TIMEOUT once the whole fetch passes its deadline, however fast the bytes come', () => {
    const watch = new TransferWatch(URL, { deadlineMs: 3_000, minBytesPerSecond: 100, rateWindowMs: 1_000 });
    watch.bodyStarted();
    for (let step = 0; step < 29; step++) {
      watch.count(10_000);
      vi.advanceTimersByTime(100);
    }
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(100);
    expect(watch.signal.reason).toBeInstanceOf(MirrorTimeoutError);
    expect(watch.signal.reason).toMatchObject({ code: 'MIRROR_TIMEOUT' });
  });

  it('lets a slow start through its first window (the grace), then cuts a drip off with MIRROR_TOO_SLOW', () => {
    const watch = new TransferWatch(URL, {
      deadlineMs: 60_000,
      minBytesPerSecond: 1_000,
      rateWindowMs: 1_000,
    });
    watch.bodyStarted();
    vi.advanceTimersByTime(900);
    expect(watch.signal.aborted).toBe(false);
    watch.count(1);
    vi.advanceTimersByTime(200);
    expect(watch.signal.reason).toBeInstanceOf(MirrorTooSlowError);
    expect(watch.signal.reason).toMatchObject({ code: 'MIRROR_TOO_SLOW' });
  });

  it('judges the last window, not the average since the start: a fast burst then a drip is cut off', () => {
    const watch = new TransferWatch(URL, { minBytesPerSecond: 1_000, rateWindowMs: 1_000 });
    watch.bodyStarted();
    watch.count(1_000_000);
    let ticks = 0;
    while (!watch.signal.aborted && ticks < 100) {
      watch.count(1);
      vi.advanceTimersByTime(200);
      ticks++;
    }
    expect(watch.signal.reason).toBeInstanceOf(MirrorTooSlowError);
    // Cut within about one window after the burst left it, not after the average fell (1000 s).
    expect(ticks).toBeLessThanOrEqual(10);
  });

  it('keeps a steady transfer at the floor going, and stops watching once closed', () => {
    const watch = new TransferWatch(URL, {
      deadlineMs: 20_000,
      minBytesPerSecond: 1_000,
      rateWindowMs: 1_000,
    });
    watch.bodyStarted();
    for (let step = 0; step < 50; step++) {
      watch.count(200);
      vi.advanceTimersByTime(200);
    }
    expect(watch.signal.aborted).toBe(false);
    watch.close();
    vi.advanceTimersByTime(60_000);
    expect(watch.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('has no floor with MIRROR_MIN_BYTES_PER_S=0', () => {
    const watch = new TransferWatch(URL, { deadlineMs: 0, minBytesPerSecond: 0, rateWindowMs: 1_000 });
    watch.bodyStarted();
    vi.advanceTimersByTime(600_000);
    expect(watch.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes on the caller’s abort (a client gone), with its reason, and stops its timers', () => {
    const caller = new AbortController();
    const watch = new TransferWatch(
      URL,
      { deadlineMs: 3_000, minBytesPerSecond: 1, rateWindowMs: 1_000 },
      caller.signal,
    );
    watch.bodyStarted();
    const gone = new Error('aborted');
    caller.abort(gone);
    expect(watch.signal.reason).toBe(gone);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the mirror limits in the configuration', () => {
  const base = { HOME: '/home/station' };

  it('default to a 120 s deadline and 16 KiB/s over 10 s windows', async () => {
    expect((await loadConfig(base)).blossom.mirrorPace).toEqual({
      deadlineMs: 120_000,
      minBytesPerSecond: 16_384,
      rateWindowMs: 10_000,
    });
    const off = await loadConfig({ ...base, MIRROR_MIN_BYTES_PER_S: '0', MIRROR_DEADLINE: '600' });
    expect(off.blossom.mirrorPace).toMatchObject({ deadlineMs: 600_000, minBytesPerSecond: 0 });
  });

  it.each([
    ['MIRROR_DEADLINE', '2m'],
    ['MIRROR_DEADLINE', '0'],
    ['MIRROR_MIN_BYTES_PER_S', '16k'],
    ['MIRROR_RATE_WINDOW', '-1'],
  ])('stops start-up on %s=%s, naming the variable', async (name, value) => {
    const refusal = loadConfig({ ...base, [name]: value });
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    await expect(refusal).rejects.toThrow(new RegExp(`^${name}: `));
  });
});
