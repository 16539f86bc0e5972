/**
 * HTTP benchmarks with autocannon against a real station started in this process on temp directories
 * (embedded relay, embedded content store). Run: `npm run bench` (optionally `-- <scenario> ...`).
 * Prints one line per scenario: requests/s, latency p50/p99, errors. Figures go into the README.
 */
import autocannon from 'autocannon';
import { profiled } from './profile.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { startBenchStation } from './station.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function runScenario(baseUrl: string, scenario: Scenario) {
  const requests = await scenario.prepare(baseUrl);
  const result = await profiled(scenario.name, () =>
    autocannon({
      url: baseUrl,
      connections: scenario.connections ?? CONNECTIONS,
      duration: DURATION_SECONDS,
      requests,
    }),
  );
  return {
    scenario: scenario.name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const wanted = process.argv.slice(2);
const station = await startBenchStation();
try {
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    console.log(JSON.stringify(await runScenario(station.url, scenario)));
  }
} finally {
  await station.close();
}
