import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { mappedBytes, type MemoryReading } from '../../src/process/memory.js';
import type { MemoryDecision } from '../../src/process/memory-watchdog.js';
import { loopbackEnv, ServiceFleet } from './service-process.js';

const run = promisify(execFile);
const MB = 1024 * 1024;
const CHILD = join(import.meta.dirname, 'file-backed-child.ts');

interface LogLine {
  level?: number;
  msg?: string;
  [field: string]: unknown;
}

const parsed = (lines: string[]): LogLine[] =>
  lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });

describe('the memory watchdog in a real process', () => {
  const fleet = new ServiceFleet();
  afterEach(() => fleet.cleanup());

  it('stops the station on its own, with one error line and a non-zero exit, past MEMORY_LIMIT_MB', async () => {
    const dir = await fleet.dir();
    const service = fleet.spawn({ ...loopbackEnv(dir.path), MEMORY_LIMIT_MB: '1' });
    const url = await service.listening;
    // Before the watchdog's third sample: /health shows what it holds against the limit.
    const { memory } = (await (await fetch(`${url}/health`)).json()) as {
      memory: { heap_used_mb: number; rss_mb: number; anonymous_mb: number | null };
    };
    expect(memory.heap_used_mb).toBeGreaterThan(1);
    expect(memory.rss_mb).toBeGreaterThan(1);

    // Nothing sends a signal: the station stops itself.
    expect(await service.exited).toBe(75);
    const lines = parsed(service.lines);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ limit_mb: 1, samples_over: 3 });
    expect(errors[0]!.counted_mb).toBeGreaterThan(1);
    expect(errors[0]!.msg).toContain('MEMORY_LIMIT_MB');
    // The stop is SIGTERM's: the station closed in order.
    expect(lines.filter((line) => line.msg === 'shutting down')).toEqual([
      expect.objectContaining({ signal: 'MEMORY_LIMIT_MB' }),
    ]);
  });

  it.runIf(process.platform === 'linux')(
    'leaves a process alone whose resident set grew by LMDB pages past the limit',
    async () => {
      const dir = await fleet.dir();
      const env = join(dir.path, 'env');
      const node = (...args: string[]) =>
        run(process.execPath, ['--import', 'tsx', CHILD, ...args], {
          cwd: join(import.meta.dirname, '..', '..'),
        });
      await node('write', env, '200');
      const { stdout } = await node('read', env);
      const result = JSON.parse(stdout) as {
        before: MemoryReading;
        after: MemoryReading;
        limitBytes: number;
        valuesRead: number;
        bytesRead: number;
        decisions: MemoryDecision[];
        fired: number;
      };
      expect(result.bytesRead).toBeGreaterThanOrEqual(200 * MB);
      // /proc/self/status saw the store's pages come in as file-backed memory (tmpfs: shared memory) ...
      expect(mappedBytes(result.after)! - mappedBytes(result.before)!).toBeGreaterThan(150 * MB);
      // ... so the resident set went past the limit: a limit on it (PM2's max_memory_restart) would have fired ...
      expect(result.after.rss).toBeGreaterThan(result.limitBytes);
      // ... while the anonymous memory stayed under it, and the watchdog never asked for a stop.
      expect(result.after.anonymous).toBeLessThan(result.limitBytes);
      expect(result.decisions.map((decision) => decision.verdict)).toEqual([
        'fine',
        'fine',
        'fine',
        'fine',
        'fine',
      ]);
      expect(result.fired).toBe(0);
    },
  );
});
