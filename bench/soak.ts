/**
 * A station under PM2 (`ecosystem.config.cjs`, as operators run it) used for `SOAK_MINUTES` (30) the way a busy
 * station is: `SOAK_USERS` (5) users each uploading files of 4 KiB to 512 KiB through `/api/upload` and Blossom,
 * deleting one of their files every third turn, and listing their drive every other turn, about
 * `SOAK_RATE` (40) requests a second in all. Every 30 s it reads `/health` (memory) and PM2's restart count;
 * at the end it compares the data folder (`du`, hard links once) with the bytes the drives list. The
 * collector runs every `STORE_GC_INTERVAL_S` and keeps roots `STORE_KEEP_ROOTS_S` (300 and 600 here unless
 * the environment says otherwise: a day's window would keep every deleted file of a 30-minute run). Run:
 * `node --import tsx bench/soak.ts` (builds first when stale). Prints JSON lines, then a summary.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { diskUsage } from '../test/drive/gc/disk-usage.js';
import { httpApi, registerAt } from '../test/drive/index/http-api.js';
import type { Listing } from '../test/drive/index/race-workload.js';
import { blossomToken, nostrAuth } from '../test/drive/blossom/requests.js';
import { freePort } from '../test/e2e/service-process.js';
import type { TestKey } from '../test/helpers/nostr.js';
import { buildIfStale } from './station.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const PM2 = join(ROOT, 'node_modules', '.bin', 'pm2');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const USERS = Number(process.env.SOAK_USERS ?? 5);
const RATE = Number(process.env.SOAK_RATE ?? 40);

buildIfStale();
const home = await mkdtemp(join(tmpdir(), 'soak-'));
const port = await freePort();
const env = {
  PATH: process.env.PATH,
  HOME: home,
  PM2_HOME: join(home, '.pm2'),
  HOST: '127.0.0.1',
  PORT: String(port),
  RELAY_URL: `ws://127.0.0.1:${await freePort()}`,
  IPFS_GATEWAY: `http://127.0.0.1:${await freePort()}`,
  UPLOAD_MAX_PER_MINUTE: '100000',
  PUBLISH_FILE_METADATA: 'false',
  STORE_GC_INTERVAL_S: process.env.STORE_GC_INTERVAL_S ?? '300',
  STORE_KEEP_ROOTS_S: process.env.STORE_KEEP_ROOTS_S ?? '600',
  LOG_LEVEL: 'warn',
};
const base = `http://127.0.0.1:${port}`;
const pm2 = (...args: string[]) => run(PM2, args, { cwd: ROOT, env });

interface Health {
  status: string;
  memory: {
    heap_used_mb: number;
    rss_mb: number;
    anonymous_mb: number | null;
    file_backed_mb: number | null;
  } | null;
}

async function health(): Promise<Health | null> {
  try {
    return (await (await fetch(`${base}/health`)).json()) as Health;
  } catch {
    return null;
  }
}

async function restarts(): Promise<number> {
  const { stdout } = await pm2('jlist');
  return (JSON.parse(stdout) as { pm2_env: { restart_time: number } }[]).reduce(
    (n, a) => n + a.pm2_env.restart_time,
    0,
  );
}

await pm2('start', 'ecosystem.config.cjs');
try {
  for (let i = 0; i < 150 && (await health())?.status !== 'ok'; i++) await sleep(200);
  const users: { key: TestKey; api: ReturnType<typeof httpApi> }[] = [];
  for (let i = 0; i < USERS; i++) {
    const key = await registerAt(base, `soak-${i}@example.org`);
    users.push({ key, api: httpApi(() => base, key) });
  }
  const statuses = new Map<number, number>();
  // Non-2xx answers by status and code: which refusal a busy or failing station gave.
  const refusals = new Map<string, number>();
  const count = (status: number, body?: unknown) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 200 && status < 300) return;
    const reason = `${status} ${(body as { code?: string } | null)?.code ?? ''}`.trim();
    refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
  };
  const end = Date.now() + MINUTES * 60_000;
  const interval = (1000 * USERS) / RATE;
  const blossom = async (key: TestKey, bytes: Buffer) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const response = await fetch(`${base}/upload`, {
      method: 'PUT',
      body: bytes,
      headers: { authorization: nostrAuth(blossomToken(key, { x: [sha256] })), 'content-type': 'image/png' },
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: counted by status alone
    }
    return { status: response.status, body };
  };
  const loop = async ({ key, api }: (typeof users)[number], index: number) => {
    const mine: string[] = [];
    for (let turn = 0; Date.now() < end; turn++) {
      const started = Date.now();
      try {
        if (turn % 3 === 2 && mine.length > 0) {
          const path = mine.splice(Math.floor(Math.random() * mine.length), 1)[0]!;
          const removed = await api.remove(path);
          count(removed.status, removed.body);
        } else if (turn % 2 === 1) {
          const listed = await api.list();
          count(listed.status, listed.body);
        } else {
          const bytes = randomBytes(4096 + Math.floor(Math.random() * 508 * 1024));
          if (turn % 4 === 0) {
            const stored = await blossom(key, bytes);
            count(stored.status, stored.body);
          } else {
            const answer = await api.upload(`soak-${index}-${turn}.bin`, bytes);
            count(answer.status, answer.body);
            if (answer.status === 200)
              mine.push((answer.body as { file_path: string }).file_path.replace(/^APP\/uDRIVE\//, ''));
          }
        }
      } catch {
        count(0);
      }
      await sleep(Math.max(0, interval - (Date.now() - started)));
    }
  };
  const samples: unknown[] = [];
  const sampler = (async () => {
    while (Date.now() < end) {
      await sleep(30_000);
      const sample = {
        at_s: Math.round((Date.now() - end) / 1000 + MINUTES * 60),
        restarts: await restarts(),
        memory: (await health())?.memory,
      };
      samples.push(sample);
      console.log(JSON.stringify(sample));
    }
  })();
  await Promise.all([...users.map(loop), sampler]);
  let live = 0;
  for (const { api } of users)
    live += ((await api.list()).body as Listing & { total_size: number }).total_size;
  const dataRoot = join(home, '.zen', 'game');
  const dataFolder = await diskUsage(dataRoot);
  const summary = {
    minutes: MINUTES,
    requests: [...statuses.values()].reduce((a, b) => a + b, 0),
    statuses: Object.fromEntries(statuses),
    refusals: Object.fromEntries(refusals),
    restarts: await restarts(),
    live_mib: +(live / 1024 ** 2).toFixed(1),
    data_folder_mib: +(dataFolder / 1024 ** 2).toFixed(1),
    ratio: +(dataFolder / live).toFixed(2),
    index_file_mib: +((await diskUsage(join(dataRoot, 'ipfs-store', 'lmdb'))) / 1024 ** 2).toFixed(1),
    last_memory: (await health())?.memory,
  };
  console.log(JSON.stringify(summary));
} finally {
  await pm2('kill').catch(() => undefined);
  await rm(home, { recursive: true, force: true });
}
