/**
 * Blossom upload benchmarks (BUD-02 `PUT /upload`) with autocannon against a bench station in this process.
 * Run: `npm run bench:blossom` (optionally `-- <scenario> ...`). Each upload sends distinct bytes with its own
 * token (tokens are single-use and equal bytes are deduplicated: repeating a body would measure the 200 path,
 * not storing a blob). Prints one JSON line per scenario, with /health throughput measured just before it;
 * `mb_per_s` is MiB/s stored. Knobs: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50, also the
 * number of users in the many-user scenarios). `floor-64KiB` (first by default) measures bench/floor.ts, a bare
 * app that only streams, hashes, flushes and renames each upload, beside the station's scenarios of the run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'autocannon';
import { measuredRun } from './cpu.js';
import { measureFloor } from './floor.js';
import { awaitFreshInodes } from './fresh-inodes.js';
import { healthRps } from './health.js';
import { nip19, type EventTemplate } from 'nostr-tools';
import { initNostrWasm } from 'nostr-wasm';
import { register } from './scenarios.js';
import { startBenchStation } from './station.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KiB = 1024;
const MiB = 1024 * KiB;
/** The varying tail of each body: an upload number, so no two bodies share a hash. */
const TAIL = 8;

interface UploadScenario {
  name: string;
  size: number;
  /** One connection per user unless `connections` says otherwise. */
  users: number;
  /** Connections sharing the users round-robin: one user's many clients (or tabs) uploading at once. */
  connections?: number;
  /** Uploads prepared (tokens signed up front); the run ends early if they are all spent. */
  pool: number;
  /**
   * Run until every prepared upload is stored, whatever BENCH_DURATION says: 50 concurrent 10 MiB uploads
   * take longer than a 10 s window, which would cut them all off and measure nothing.
   */
  untilSpent?: boolean;
}

const SCENARIOS: UploadScenario[] = [
  // Room for far more than this station stores per second: the duration, not the pool, ends these runs.
  { name: 'blossom-64KiB-1user', size: 64 * KiB, users: 1, pool: 500 * DURATION_SECONDS },
  {
    name: `blossom-64KiB-${CONNECTIONS}users`,
    size: 64 * KiB,
    users: CONNECTIONS,
    pool: 2000 * DURATION_SECONDS,
  },
  // One drive, many uploads at once: what the drive's group commits are for.
  {
    name: `blossom-64KiB-1user-${CONNECTIONS}conn`,
    size: 64 * KiB,
    users: 1,
    connections: CONNECTIONS,
    pool: 2000 * DURATION_SECONDS,
  },
  // 10 MiB uploads fill the disk fast (staging, content store and drive): modest pools.
  { name: 'blossom-10MiB-1user', size: 10 * MiB, users: 1, pool: 50, untilSpent: true },
  {
    name: `blossom-10MiB-1user-${CONNECTIONS}conn`,
    size: 10 * MiB,
    users: 1,
    connections: CONNECTIONS,
    pool: 3 * CONNECTIONS,
    untilSpent: true,
  },
  {
    name: `blossom-10MiB-${CONNECTIONS}users`,
    size: 10 * MiB,
    users: CONNECTIONS,
    pool: 3 * CONNECTIONS,
    untilSpent: true,
  },
];

// libsecp256k1 in WASM signs several times faster than nostr-tools' JavaScript: thousands of tokens per run.
const nw = await initNostrWasm();

function uploadToken(secretKey: Uint8Array, sha256: string): string {
  const now = Math.floor(Date.now() / 1000);
  const template: EventTemplate = {
    kind: 24242,
    created_at: now,
    content: 'bench upload',
    tags: [
      ['t', 'upload'],
      ['expiration', String(now + 3600)],
      ['x', sha256],
    ],
  };
  const event = { ...template, pubkey: '', id: '', sig: '' };
  nw.finalizeEvent(event, secretKey);
  return `Nostr ${Buffer.from(JSON.stringify(event)).toString('base64url')}`;
}

/** Registers `count` users over HTTP, like any client would, and returns their secret keys. */
async function users(baseUrl: string, name: string, count: number): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const { nsec } = await register(baseUrl, `${name}-${i}@example.org`);
    keys.push(nip19.decode(nsec).data as Uint8Array);
  }
  return keys;
}

async function runUploads(baseUrl: string, pid: number, scenario: UploadScenario) {
  const { size, pool } = scenario;
  const keys = await users(baseUrl, scenario.name, scenario.users);
  // Bodies differ in their last bytes only: the hash of the shared prefix is taken once, then extended.
  const body = randomBytes(size);
  const prefix = createHash('sha256').update(body.subarray(0, size - TAIL));
  const connections = scenario.connections ?? keys.length;
  const perConnection = Math.floor(pool / connections);
  const queues = Array.from({ length: connections }, (_, connection) =>
    Array.from({ length: perConnection }, (_, i) => {
      const key = keys[connection % keys.length]!;
      const number = connection * perConnection + i;
      const tail = Buffer.alloc(TAIL);
      tail.writeBigUInt64BE(BigInt(number));
      const sha256 = prefix.copy().update(tail).digest('hex');
      return { number, authorization: uploadToken(key, sha256) };
    }),
  );
  const used = queues.map(() => 0);

  let nextClient = 0;
  const statuses = new Map<number, number>();
  const { result, cpu_ms_per_request } = await measuredRun(scenario.name, pid, {
    url: baseUrl,
    connections,
    // `amount` ignores the duration; `maxConnectionRequests` ends a connection once its tokens are spent.
    ...(scenario.untilSpent
      ? { amount: perConnection * connections }
      : { duration: DURATION_SECONDS, maxConnectionRequests: perConnection }),
    timeout: 120,
    // Replaced per connection below; never sent.
    requests: [{ method: 'PUT', path: '/upload' }],
    setupClient: (client: Client) => {
      const connection = nextClient++ % queues.length;
      const queue = queues[connection]!;
      client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
      client.setRequests([
        {
          method: 'PUT',
          path: '/upload',
          setupRequest: (request) => {
            // Never past the end: each connection stops after `perConnection` requests.
            const next = queue[used[connection]!++]!;
            // autocannon copies the body into its request buffer right away: one buffer serves every upload.
            body.writeBigUInt64BE(BigInt(next.number), size - TAIL);
            return {
              ...request,
              headers: {
                ...request.headers,
                authorization: next.authorization,
                'content-type': 'application/octet-stream',
              },
              body,
            };
          },
        },
      ]);
    },
  });
  const stored = (statuses.get(201) ?? 0) + (statuses.get(200) ?? 0);
  return {
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    mb_per_s: Math.round(((stored * size) / MiB / result.duration) * 10) / 10,
    cpu_ms_per_request,
    non2xx: result.non2xx,
    errors: result.errors,
    connections,
    created: statuses.get(201) ?? 0,
    deduplicated: statuses.get(200) ?? 0,
    ...(result.non2xx > 0 && { statuses: Object.fromEntries(statuses) }),
  };
}

const wanted = process.argv.slice(2);
await awaitFreshInodes();
let removeFloorFiles = async () => {};
if (wanted.length === 0 || wanted.includes('floor-64KiB')) {
  const floor = await measureFloor(64 * KiB, CONNECTIONS, DURATION_SECONDS);
  removeFloorFiles = floor.removeFiles;
  const { health_rps, ...figures } = floor.figures;
  console.log(JSON.stringify({ scenario: 'floor-64KiB', ...figures, health_rps, connections: CONNECTIONS }));
}
const station = await startBenchStation().catch(async (error: unknown) => {
  await removeFloorFiles();
  throw error;
});
try {
  for (const scenario of SCENARIOS.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    const health_rps = await healthRps(station.url, CONNECTIONS);
    const figures = await runUploads(station.url, station.pid, scenario);
    const { connections, created, deduplicated, ...measured } = figures;
    const line = { scenario: scenario.name, ...measured, health_rps, connections, created, deduplicated };
    console.log(JSON.stringify(line));
    // Uploads fully sent when the run stopped are still being stored: let them finish before measuring on.
    await sleep(2000);
  }
} finally {
  await station.close();
  await removeFloorFiles();
}
