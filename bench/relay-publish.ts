/**
 * EVENT publishing through the embedded relay while the HTTP API answers (issue 43): the built service as
 * operators run it, `BENCH_PUBLISH_CONNECTIONS` (50) WebSocket connections each keeping 20 signed events in
 * flight for `BENCH_DURATION` seconds (10), and autocannon on `/health` (10 connections) at the same time;
 * before that, `/health` alone for the same time. Prints the acknowledged events a second and `/health`'s
 * throughput, p50 and p99, alone and during the publishing. The publishers connect from 127.0.0.1, which is
 * exempt from strangers' allowances (TRUSTED_IPS): this measures the relay's capacity, not its budgets. Run:
 * `node --import tsx bench/relay-publish.ts` (builds first when stale).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { NostrEvent } from 'nostr-tools';
import WebSocket from 'ws';
import { freePort, startService } from '../test/e2e/service-process.js';
import { benchEvents, relayBenchEnv } from './relay-events.js';
import { buildIfStale } from './station.js';

const CONNECTIONS = Number(process.env.BENCH_PUBLISH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const IN_FLIGHT = 20;

/** One connection publishing `events` in order, `IN_FLIGHT` at a time, until `until`; resolves with the OKs. */
async function publisher(url: string, events: NostrEvent[], until: number): Promise<number> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
  let next = 0;
  let accepted = 0;
  let pending = 0;
  return new Promise<number>((resolve) => {
    const send = () => {
      while (pending < IN_FLIGHT && next < events.length && Date.now() < until) {
        socket.send(JSON.stringify(['EVENT', events[next++]]));
        pending++;
      }
      if (pending === 0) {
        socket.terminate();
        resolve(accepted);
      }
    };
    socket.on('message', (data) => {
      const [type, , ok] = JSON.parse(data.toString()) as [string, string, boolean];
      if (type !== 'OK') return;
      pending--;
      if (ok) accepted++;
      send();
    });
    send();
  });
}

const health = (url: string) =>
  autocannon({ url: `${url}/health`, connections: 10, duration: SECONDS }).then((result) => ({
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
  }));

buildIfStale();
const events = await benchEvents(200_000);
const home = await mkdtemp(join(tmpdir(), 'station-bench-publish-'));
const relayPort = await freePort();
const service = startService(relayBenchEnv(home, relayPort), { built: true });
try {
  const url = await service.listening;
  while (((await (await fetch(`${url}/health`)).json()) as { status: string }).status !== 'ok');
  const alone = await health(url);
  const until = Date.now() + SECONDS * 1000;
  const share = Math.floor(events.length / CONNECTIONS);
  const started = performance.now();
  const [accepted, during] = await Promise.all([
    Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        publisher(`ws://127.0.0.1:${relayPort}`, events.slice(i * share, (i + 1) * share), until),
      ),
    ),
    health(url),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const total = accepted.reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      connections: CONNECTIONS,
      events_accepted: total,
      events_per_s: Math.round(total / seconds),
      health_alone: alone,
      health_during: during,
    }),
  );
} finally {
  service.child.kill('SIGTERM');
  await service.exited;
  await rm(home, { recursive: true, force: true });
}
