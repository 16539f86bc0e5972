/**
 * HTTP benchmarks with autocannon against a real station started in this process on temp directories
 * (embedded relay, embedded content store). Run: `npm run bench` (optionally `-- <scenario> ...`).
 * Prints one line per scenario: requests/s, latency p50/p99, errors. Figures go into docs/benchmarks.md.
 * `floor-64KiB` (first, with the others or when named) is bench/floor.ts: a bare app's durable upload, the
 * yardstick for the upload scenarios.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type Client, type Options, type Request } from 'autocannon';
import { measuredRun } from './cpu.js';
import { measureFloor } from './floor.js';
import { awaitFreshInodes, sync } from './fresh-inodes.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { startBenchStation } from './station.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/**
 * Each scenario first runs unmeasured this long (`BENCH_WARMUP`, seconds; 0 before 2026-11-26): a fresh
 * process spends its first seconds of a workload compiling it (V8 optimized some 1,000 functions in the
 * first 10 s of 50 users' uploads, still 10–50 a second after 30 s), which a station running for months
 * has long done.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 5);

async function runScenario(baseUrl: string, pid: number, scenario: Scenario) {
  const prepared = await scenario.prepare(baseUrl);
  const perUser = 'perUser' in prepared ? prepared.perUser : null;
  const options = (duration: number): Options => {
    let nextClient = 0;
    return {
      url: baseUrl,
      connections: scenario.connections ?? CONNECTIONS,
      duration,
      requests: perUser ? perUser[0]! : (prepared as Request[]),
      // One client per user: connection i sends user i's requests.
      ...(perUser && {
        setupClient: (client: Client) => client.setRequests(perUser[nextClient++ % perUser.length]!),
      }),
    };
  };
  if (WARMUP_SECONDS > 0) {
    await autocannon(options(WARMUP_SECONDS));
    await settle();
  }
  const { result, cpu_ms_per_request } = await measuredRun(scenario.name, pid, options(DURATION_SECONDS));
  return {
    scenario: scenario.name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    cpu_ms_per_request,
    non2xx: result.non2xx,
    errors: result.errors,
    warmup_s: WARMUP_SECONDS,
  };
}

/**
 * Before each scenario: the data the previous one wrote is flushed (`sync`) and the machine given a moment, so
 * that the kernel's write-back of one scenario's files does not run on the two cores during the next one.
 * `BENCH_SETTLE=0` runs the scenarios back to back.
 */
async function settle(): Promise<void> {
  if (process.env.BENCH_SETTLE === '0') return;
  await sync();
  await sleep(2_000);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => name !== 'floor-64KiB' && !SCENARIOS.some((s) => s.name === name));
if (unknown.length > 0) {
  const names = ['floor-64KiB', ...SCENARIOS.map((s) => s.name)].join(', ');
  console.error(`bench: no scenario named ${unknown.join(', ')}; scenarios: ${names}`);
  process.exit(2);
}
await awaitFreshInodes();
let removeFloorFiles = async () => {};
if (wanted.length === 0 || wanted.includes('floor-64KiB')) {
  // The least a durable 64 KiB upload costs on this machine (bench/floor.ts), beside the upload scenarios.
  const floor = await measureFloor(64 * 1024, 50, DURATION_SECONDS);
  removeFloorFiles = floor.removeFiles;
  console.log(JSON.stringify({ scenario: 'floor-64KiB', ...floor.figures, connections: 50 }));
}
const station = await startBenchStation().catch(async (error: unknown) => {
  await removeFloorFiles();
  throw error;
});
try {
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    await settle();
    console.log(JSON.stringify(await runScenario(station.url, station.pid, scenario)));
  }
} finally {
  await station.close();
  await removeFloorFiles();
}
