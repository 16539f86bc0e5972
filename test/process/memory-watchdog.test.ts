import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { MemoryReading } from '../../src/process/memory.js';
import {
  decideMemory,
  startMemoryWatchdog,
  type MemoryDecision,
  type MemorySample,
} from '../../src/process/memory-watchdog.js';

const MB = 1024 * 1024;
const LIMIT = 1024 * MB;
const policy = { limitBytes: LIMIT, samplesOverLimit: 3 };

/** A reading of `anonymous` MB of anonymous memory and `file` MB of mapped file pages. */
function reading(anonymous: number, file = 50): MemoryReading {
  return {
    heapUsed: Math.min(anonymous, 300) * MB,
    heapTotal: 320 * MB,
    external: 10 * MB,
    arrayBuffers: 5 * MB,
    rss: (anonymous + file) * MB,
    anonymous: anonymous * MB,
    fileBacked: file * MB,
    shmem: 0,
    swapped: 0,
  };
}

/** Samples 5 s apart, from `readings`, oldest first. */
const samples = (...readings: MemoryReading[]): MemorySample[] =>
  readings.map((r, i) => ({ at: 1_000_000 + i * 5_000, reading: r }));

/** The decision after each sample, as the watchdog takes them (its window: the last `samplesOverLimit`). */
function decisionsOver(readings: MemoryReading[]): MemoryDecision['verdict'][] {
  return readings
    .map((_, i) => decideMemory(samples(...readings).slice(Math.max(0, i + 1 - 3), i + 1), policy))
    .map((decision) => decision.verdict);
}

describe('decideMemory', () => {
  it('never restarts for mapped file pages, however many (the LMDB stores read for hours)', () => {
    // The soak of the issue: 2.4 GB resident, 1.96 GB of it file-backed, and then far more.
    const soak = [400, 400, 410, 405, 400, 410].map((anon, i) => reading(anon, 1_960 + i * 2_000));
    expect(soak.at(-1)!.rss).toBeGreaterThan(10 * LIMIT);
    expect(decisionsOver(soak)).toEqual(['fine', 'fine', 'fine', 'fine', 'fine', 'fine']);
  });

  it('restarts when anonymous memory stays over the limit for the given number of samples', () => {
    const growth = [500, 900, 1_100, 1_200, 1_300].map((anon) => reading(anon));
    expect(decisionsOver(growth)).toEqual(['fine', 'fine', 'over', 'over', 'restart']);
    const decision = decideMemory(samples(...growth).slice(2), policy);
    expect(decision).toEqual({
      verdict: 'restart',
      countedBytes: 1_300 * MB,
      samplesOver: 3,
      overSince: 1_010_000,
      overForMs: 10_000,
    });
  });

  it('does not restart for one spike, nor for spikes with a sample under the limit between them', () => {
    const spikes = [500, 2_000, 500, 1_500, 1_500, 900, 1_500].map((anon) => reading(anon));
    expect(decisionsOver(spikes)).toEqual(['fine', 'over', 'fine', 'over', 'over', 'fine', 'over']);
  });

  it('counts swapped-out anonymous memory, which a leak moves to swap', () => {
    const swapping = { ...reading(800), swapped: 400 * MB };
    expect(decideMemory(samples(swapping, swapping, swapping), policy).verdict).toBe('restart');
  });

  it('without /proc, counts the V8 heap in use and native memory', () => {
    const bare = (heap: number): MemoryReading => ({
      ...reading(0),
      heapUsed: heap * MB,
      external: 100 * MB,
      anonymous: null,
      fileBacked: null,
      shmem: null,
      swapped: null,
    });
    expect(decideMemory(samples(bare(1_000), bare(1_000), bare(1_000)), policy).verdict).toBe('restart');
    expect(decideMemory(samples(bare(1_000), bare(1_000), bare(1_000)), policy).countedBytes).toBe(
      1_100 * MB,
    );
    expect(decideMemory(samples(bare(800), bare(800), bare(800)), policy).verdict).toBe('fine');
  });

  it('never restarts with the limit at 0 (MEMORY_LIMIT_MB=0), nor without samples', () => {
    const huge = reading(100_000);
    expect(decideMemory(samples(huge, huge, huge), { ...policy, limitBytes: 0 }).verdict).toBe('fine');
    expect(decideMemory([], policy).verdict).toBe('fine');
  });
});

describe('startMemoryWatchdog', () => {
  function capturedLogger() {
    const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    return { lines, logger: createLogger({ level: 'info', format: 'json', output }) };
  }

  it('logs one error line with the figures and the limit, and asks to stop once', async () => {
    const readings = [500, 1_100, 1_200, 1_300, 1_400, 1_500].map((anon) => reading(anon, 1_960));
    let now = 0;
    let stops = 0;
    const { lines, logger } = capturedLogger();
    const watchdog = startMemoryWatchdog({
      limitBytes: LIMIT,
      logger,
      onLimit: () => stops++,
      // The test takes the samples; the timer never fires within it.
      intervalMs: 3_600_000,
      read: async () => readings.shift()!,
      clock: { now: () => (now += 5_000) },
    });
    const verdicts: string[] = [];
    for (let i = 0; i < 6; i++) verdicts.push((await watchdog.sample()).verdict);
    watchdog.stop();

    expect(verdicts).toEqual(['fine', 'over', 'over', 'restart', 'restart', 'restart']);
    expect(stops).toBe(1);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      counted_mb: 1_300,
      limit_mb: 1_024,
      samples_over: 3,
      over_for_s: 10,
      anonymous_mb: 1_300,
      file_backed_mb: 1_960,
      rss_mb: 3_260,
    });
    expect(errors[0]!.msg).toContain('MEMORY_LIMIT_MB');
    expect(errors[0]!.msg).toContain('1300 MB');
    expect(errors[0]!.msg).toContain('1024 MB');
  });

  it('stays quiet while only mapped file pages grow', async () => {
    const readings = Array.from({ length: 10 }, (_, i) => reading(300, 1_000 + i * 1_000));
    let stops = 0;
    const { lines, logger } = capturedLogger();
    const watchdog = startMemoryWatchdog({
      limitBytes: LIMIT,
      logger,
      onLimit: () => stops++,
      intervalMs: 3_600_000,
      read: async () => readings.shift()!,
    });
    for (let i = 0; i < 10; i++) expect((await watchdog.sample()).verdict).toBe('fine');
    watchdog.stop();
    expect(stops).toBe(0);
    expect(lines).toEqual([]);
  });
});
