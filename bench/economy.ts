/**
 * Economy read-outs over a long history: a station in this process on a local indexer holding 10,000 sales
 * and 10,000 shares (BENCH_TRANSFERS), autocannon on `/check_revenue` and `/check_society` with
 * `Accept-Encoding: br, gzip`, then without it, and a paged request. Run: `node --import tsx bench/economy.ts`
 * (optionally `<scenario> ...`). Prints the time of the first (uncached) answers, then one JSON line per
 * scenario with /health throughput measured just before it. Knobs: BENCH_DURATION (s, default 10),
 * BENCH_CONNECTIONS (default 50).
 */
import { writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import autocannon, { type Client } from 'autocannon';
import { healthRps } from './health.js';
import { manyTransfers } from '../test/economy/many-transfers.js';
import { startBenchStation } from './station.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 10_000);

interface Scenario {
  name: string;
  path: string;
  headers: Record<string, string>;
}

const COMPRESSED = { 'accept-encoding': 'br, gzip' };
const SCENARIOS: Scenario[] = [
  { name: 'check_revenue-br', path: '/check_revenue', headers: COMPRESSED },
  { name: 'check_society-br', path: '/check_society', headers: COMPRESSED },
  { name: 'check_revenue-gzip', path: '/check_revenue', headers: { 'accept-encoding': 'gzip' } },
  { name: 'check_revenue-identity', path: '/check_revenue', headers: {} },
  { name: 'check_society-identity', path: '/check_society', headers: {} },
  { name: 'check_revenue-limit100', path: '/check_revenue?limit=100', headers: COMPRESSED },
];

/** One answer as it crosses the wire: status, body bytes as sent (compressed or not), elapsed time. */
function fetchRaw(url: string, headers: Record<string, string>) {
  const started = performance.now();
  return new Promise<{ status: number; bytes: number; ms: number }>((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** autocannon loads per-connection set-up from a file in workers mode: a CommonJS module written at start. */
async function writeSetupFile(dir: string): Promise<string> {
  const path = join(dir, 'drop-bodies.cjs');
  await writeFile(path, 'module.exports = (client) => { client.pipelinedRequests.addBody = () => {}; };\n');
  return path;
}

async function run(baseUrl: string, scenario: Scenario, setupFile: string) {
  const health_rps = await healthRps(baseUrl, CONNECTIONS);
  const sample = await fetchRaw(baseUrl + scenario.path, scenario.headers);
  const result = await autocannon({
    url: baseUrl + scenario.path,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: scenario.headers,
    timeout: 60,
    // The load generator runs on a worker thread, off the station's event loop, and does not keep the bodies
    // (autocannon decodes each into a string: at 100 KB to 2.5 MB an answer, it measured itself, not us).
    workers: 1,
    // In workers mode autocannon takes a module path here; its types know only the function form.
    setupClient: setupFile as unknown as (client: Client) => void,
  });
  return {
    scenario: scenario.name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    bytes_per_answer: sample.bytes,
    health_rps,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const station = await startBenchStation({ fixture: manyTransfers(TRANSFERS) });
const { home } = station;
try {
  for (const path of ['/check_revenue', '/check_society']) {
    const first = await fetchRaw(station.url + path, COMPRESSED);
    const cached = await fetchRaw(station.url + path, COMPRESSED);
    const line = { first_call: path, status: first.status, first_ms: Math.round(first.ms) };
    console.log(JSON.stringify({ ...line, second_ms: Math.round(cached.ms), transfers: TRANSFERS }));
  }
  const setupFile = await writeSetupFile(home);
  const wanted = process.argv.slice(2);
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    console.log(JSON.stringify(await run(station.url, scenario, setupFile)));
  }
} finally {
  await station.close();
}
