/**
 * Relay-layer benchmarks (issue: a station restarts in seconds after months of events):
 * `npm run bench:relay` (the service is built first when a source is newer). Prints, for 10,000 and 200,000
 * stored events: start-up time of the whole service to a healthy /health, the signature checks start-up ran,
 * /health throughput in the same run, and REQ latency for 500 events; then the events per second the bot
 * ingests with verification.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Filter } from 'nostr-tools';
import WebSocket from 'ws';
import { openLmdbEventStore } from '../src/relay/store/lmdb-event-store.js';
import { benchEvents, fillStore, relayBenchEnv } from './relay-events.js';
import { benchIngest } from './relay-ingest.js';
import { buildIfStale } from './station.js';
import { freePort, startService, type ServiceProcess } from '../test/e2e/service-process.js';

/** REQ → EOSE on a bare WebSocket: the relay's own latency (a nostr-tools client would add its verification). */
async function reqLatency(
  url: string,
  filter: Filter,
  runs = 20,
): Promise<{ p50: number; p99: number; events: number }> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  const times: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    events = 0;
    await new Promise<void>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        const [type] = JSON.parse(data.toString()) as [string];
        if (type === 'EVENT') events++;
        if (type === 'EOSE') {
          socket.off('message', onMessage);
          resolve();
        }
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify(['REQ', `bench-${i}`, filter]));
    });
    socket.send(JSON.stringify(['CLOSE', `bench-${i}`]));
    times.push(performance.now() - started);
  }
  socket.terminate();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs / 2)]!, p99: times[runs - 1]!, events };
}

interface Started {
  service: ServiceProcess;
  url: string;
  /** Spawn to the "listening" log line, and to a /health answering `ok` (relay connected, store fine). */
  listeningMs: number;
  healthyMs: number;
  checks: number;
}

/** Starts the built service (see buildIfStale below) on `home` and waits until /health says ok. */
async function startBuilt(home: string, relayPort: number, maxEvents: number): Promise<Started> {
  const started = performance.now();
  const service = startService(relayBenchEnv(home, relayPort, { RELAY_MAX_EVENTS: String(maxEvents) }), {
    built: true,
  });
  const url = await service.listening;
  const listeningMs = performance.now() - started;
  let health: { status?: string; nostr_verification?: { checks: number } } = {};
  while (health.status !== 'ok') health = (await (await fetch(`${url}/health`)).json()) as typeof health;
  const healthyMs = performance.now() - started;
  return { service, url, listeningMs, healthyMs, checks: health.nostr_verification?.checks ?? -1 };
}

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Three starts on one station holding `count` events (the first is a first start, then restarts). */
async function startupRun(count: number) {
  const home = await mkdtemp(join(tmpdir(), 'station-bench-relay-'));
  const store = await openLmdbEventStore({
    path: join(home, '.zen', 'game', 'relay', 'store'),
    maxEvents: count * 2,
  });
  await fillStore(store, await benchEvents(count));
  await store.close();
  const relayPort = await freePort();
  const starts: Started[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const started = await startBuilt(home, relayPort, count * 2);
      starts.push(started);
      if (i < 2) await stop(started.service);
    }
    const last = starts.at(-1)!;
    const load = await autocannon({ url: `${last.url}/health`, connections: 20, duration: 5 });
    const kinds = await reqLatency(`ws://127.0.0.1:${relayPort}`, { kinds: [1], limit: 500 });
    const tagged = await reqLatency(`ws://127.0.0.1:${relayPort}`, { '#t': ['topic7'], limit: 500 });
    return {
      stored: count,
      listening_ms_median: Math.round(median(starts.map((s) => s.listeningMs))),
      healthy_ms_median: Math.round(median(starts.map((s) => s.healthyMs))),
      healthy_ms_all: starts.map((s) => Math.round(s.healthyMs)),
      signature_checks_at_start: starts.map((s) => s.checks),
      health_rps: Math.round(load.requests.average),
      health_p99_ms: load.latency.p99,
      req_500_kinds_p50_ms: round(kinds.p50),
      req_500_kinds_p99_ms: round(kinds.p99),
      req_500_tag_p50_ms: round(tagged.p50),
      req_events: kinds.events,
    };
  } finally {
    if (starts.at(-1)?.service.child.exitCode === null) await stop(starts.at(-1)!.service);
    await rm(home, { recursive: true, force: true });
  }
}

const counts = (process.env.BENCH_RELAY_COUNTS ?? '10000,200000').split(',').map(Number);
// Once for every start below: nothing changes the sources during the run.
buildIfStale();
for (const count of counts) console.log(JSON.stringify(await startupRun(count)));
console.log(JSON.stringify(await benchIngest(20_000)));
