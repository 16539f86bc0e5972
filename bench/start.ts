/**
 * How long `npm start` takes to a healthy `/health`, as an operator runs it: npm, the build check (nothing
 * rebuilt when no source changed), the service's start. Measured on an empty DATA_ROOT and again with 200
 * registered users (`START_USERS`), three times each; then a start after a source change (one rebuild)
 * and the one after it. Run: `node --import tsx bench/start.ts` (after `npm install`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/e2e/service-process.js';
import { healthRps } from './health.js';
import { register } from './scenarios.js';

const ROOT = join(import.meta.dirname, '..');
const USERS = Number(process.env.START_USERS ?? 200);

interface Started {
  url: string;
  ms: number;
  stop: () => Promise<void>;
}

async function npmStart(home: string): Promise<Started> {
  const [port, relayPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOME: home,
      HOST: '127.0.0.1',
      PORT: String(port),
      RELAY_URL: `ws://127.0.0.1:${relayPort}`,
      IPFS_GATEWAY: `http://127.0.0.1:${gatewayPort}`,
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    const ok = await fetch(`${url}/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ms = Math.round(performance.now() - started);
  const stop = async () => {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  return { url, ms, stop };
}

async function runs(home: string, label: string, count = 3): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const station = await npmStart(home);
    times.push(station.ms);
    await station.stop();
  }
  console.log(JSON.stringify({ scenario: label, start_to_health_ms: times }));
  return times;
}

const home = await mkdtemp(join(tmpdir(), 'bench-start-'));
try {
  await runs(home, 'empty DATA_ROOT');
  const station = await npmStart(home);
  for (let i = 0; i < USERS; i++) await register(station.url, `u${i}@example.org`);
  await station.stop();
  await runs(home, `${USERS} users`);
  // A source newer than the build: `npm start` rebuilds once, then starts.
  const now = new Date();
  await utimes(join(ROOT, 'src', 'main.ts'), now, now);
  await runs(home, 'after a source change (rebuild)', 1);
  await runs(home, 'the start after it', 1);
  const yardstick = await npmStart(home);
  console.log(JSON.stringify({ scenario: '/health, same run', health_rps: await healthRps(yardstick.url) }));
  await yardstick.stop();
} finally {
  await rm(home, { recursive: true, force: true });
}
