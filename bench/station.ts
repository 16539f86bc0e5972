import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config/config.js';
import { startStation } from '../src/station.js';
import { removeBenchFiles } from './fresh-inodes.js';
import { startService, loopbackEnv } from '../test/e2e/service-process.js';
import { FakeSquid, type SquidFixture } from '../test/economy/squid-server.js';

/** A whole station on loopback and temp directories, rate limiting lifted so the figures measure the service. */
export async function startBenchStation(
  options: { fixture?: SquidFixture } = {},
): Promise<{ url: string; home: string; pid: number; close: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'station-bench-'));
  // The Ğ1 indexer is not reachable here: the test suite's local squid answers with its fixture.
  const squid = await FakeSquid.start(options.fixture);
  const env: Record<string, string> = {
    ...loopbackEnv(home),
    RATE_LIMIT_MAX: '1000000',
    SQUID_URL: squid.url,
    DRIVE_QUOTA_MB: '100000',
    UPLOAD_MAX_CONCURRENT: '1000',
    UPLOAD_MAX_PER_MINUTE: '100000',
    // autocannon runs in this process and shares its event loop: its own lag must not turn requests away.
    OVERLOAD_MAX_EVENT_LOOP_DELAY: '0',
    ...(process.env.BENCH_ENV_JSON && JSON.parse(process.env.BENCH_ENV_JSON)),
  };
  // A station that does not start leaves no temp directory or indexer behind (a handful of files: their
  // removal is not noted for bench/fresh-inodes.ts).
  const abandon = async (error: unknown): Promise<never> => {
    await squid.close();
    await rm(home, { recursive: true, force: true });
    throw error;
  };
  if (process.env.BENCH_SERVER === 'process') return inOwnProcess(env, home, squid).catch(abandon);
  const station = await loadConfig(env)
    .then((config) => startStation(config, pino({ level: 'warn' })))
    .catch(abandon);
  return {
    url: station.url,
    home,
    pid: process.pid,
    close: async () => {
      await station.close();
      await squid.close();
      // Requests autocannon abandoned at the end of a run may still be writing (an upload): retried.
      await removeBenchFiles(home);
    },
  };
}

/**
 * `BENCH_SERVER=process`: the station as operators run it, a process of its own (`node dist/src/main.js`,
 * as `npm start` runs it, built first when a source is newer; logging at `info`), so that autocannon no
 * longer shares its event loop; the other figures keep the in-process station.
 */
async function inOwnProcess(env: Record<string, string>, home: string, squid: FakeSquid) {
  const { OVERLOAD_MAX_EVENT_LOOP_DELAY: _inProcessOnly, ...own } = env;
  buildIfStale();
  const service = startService({ ...own, LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, { built: true });
  const url = await service.listening.catch(async (error: unknown) => {
    service.child.kill('SIGTERM');
    await service.exited;
    throw error;
  });
  return {
    url,
    home,
    pid: service.child.pid!,
    close: async () => {
      service.child.kill('SIGTERM');
      await service.exited;
      await squid.close();
      await removeBenchFiles(home);
    },
  };
}

/** `npm start`'s own step (scripts/build.mjs --if-stale): a second when nothing changed since the last build. */
export function buildIfStale(): void {
  const script = join(import.meta.dirname, '..', 'scripts', 'build.mjs');
  // Its messages go to stderr: a benchmark's stdout is its JSON lines.
  const build = spawnSync(process.execPath, [script, '--if-stale'], { stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error(`the build failed (${build.status ?? build.signal})`);
}
