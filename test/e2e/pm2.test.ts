import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { freePort } from './service-process.js';
import { httpApi, registerAt } from '../drive/index/http-api.js';
import { disagreements, raceOnDrive, serverErrors, type Listing } from '../drive/index/race-workload.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const PM2 = join(ROOT, 'node_modules', '.bin', 'pm2');

describe('PM2 deployment', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: NodeJS.ProcessEnv;
  let port: number;
  let relayUrl: string;

  beforeAll(async () => {
    dir = await tempDir();
    port = await freePort();
    const relayPort = await freePort();
    // A PM2 daemon of its own (PM2_HOME), on temp data, so the test never touches a real station.
    env = {
      PATH: process.env.PATH,
      HOME: dir.path,
      PM2_HOME: join(dir.path, '.pm2'),
      HOST: '127.0.0.1',
      PORT: String(port),
      RELAY_URL: (relayUrl = `ws://127.0.0.1:${relayPort}`),
      IPFS_GATEWAY: `http://127.0.0.1:${await freePort()}`,
    };
    await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, env: process.env });
  }, 180_000);

  afterAll(async () => {
    await run(PM2, ['kill'], { cwd: ROOT, env }).catch(() => undefined);
    await dir.cleanup();
  });

  const health = async () => {
    try {
      return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
        status: string;
        relay: string;
      };
    } catch {
      return null;
    }
  };

  it('starts the service from ecosystem.config.cjs and serves /health', async () => {
    await run(PM2, ['start', 'ecosystem.config.cjs'], { cwd: ROOT, env });
    await waitFor(async () => (await health())?.status === 'ok');
    const { stdout } = await run(PM2, ['jlist'], { cwd: ROOT, env });
    const [app] = JSON.parse(stdout) as {
      name: string;
      pm2_env: { status: string; pm_out_log_path: string };
    }[];
    expect(app).toMatchObject({ name: 'uplanet-station', pm2_env: { status: 'online' } });
    expect(app!.pm2_env.pm_out_log_path).toBe(join(dir.path, '.zen', 'tmp', 'uplanet-station.out.log'));
    await run(PM2, ['stop', 'uplanet-station'], { cwd: ROOT, env });
    await waitFor(async () => (await health()) === null);
  }, 90_000);

  it('runs one embedded relay for a whole cluster, so every client sees every live event', async () => {
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env }).catch(() => undefined);
    const log = join(dir.path, '.zen', 'tmp', 'uplanet-station.out.log');
    const before = (await readFile(log, 'utf8').catch(() => '')).length;
    await run(PM2, ['start', 'ecosystem.config.cjs'], { cwd: ROOT, env: { ...env, STATION_INSTANCES: '2' } });
    const online = async () => {
      const { stdout } = await run(PM2, ['jlist'], { cwd: ROOT, env });
      return (JSON.parse(stdout) as { pm2_env: { status: string } }[]).filter(
        (app) => app.pm2_env.status === 'online',
      ).length;
    };
    await waitFor(async () => (await online()) === 2);
    // Connections are dealt to the workers in turn: both bots must be connected to the one relay.
    let connectedInARow = 0;
    await waitFor(async () => {
      connectedInARow = (await health())?.relay === 'connected' ? connectedInARow + 1 : 0;
      return connectedInARow >= 6;
    }, 30_000);
    const started = (await readFile(log, 'utf8'))
      .slice(before)
      .split('\n')
      .filter((line) => line.includes('embedded relay started'));
    expect(started).toHaveLength(1);

    // Were each worker to run a relay on the shared port, these connections would be split between them and
    // a subscriber on the other worker would never hear of the event.
    const author = newKey();
    const subscribers = await Promise.all(Array.from({ length: 4 }, () => Relay.connect(relayUrl)));
    try {
      const ready: Promise<void>[] = [];
      const heard = subscribers.map(
        (relay) =>
          new Promise<string>((resolve) => {
            ready.push(
              new Promise((stored) => {
                const sub = relay.subscribe([{ kinds: [1], authors: [author.hex] }], {
                  oneose: () => stored(),
                  onevent: (event: NostrEvent) => {
                    sub.close();
                    resolve(event.id);
                  },
                });
              }),
            );
          }),
      );
      await Promise.all(ready);
      const note = signEvent(author, { kind: 1, content: 'to every subscriber' });
      await publish(relayUrl, note);
      const received = await Promise.race([
        Promise.all(heard),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
      ]);
      expect(received).toEqual(subscribers.map(() => note.id));
    } finally {
      for (const relay of subscribers) relay.close();
    }
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env });
  }, 120_000);

  it('keeps a drive right when two cluster workers share DATA_ROOT: its owner and its pages racing', async () => {
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env }).catch(() => undefined);
    const log = join(dir.path, '.zen', 'tmp', 'uplanet-station.out.log');
    const before = (await readFile(log, 'utf8').catch(() => '')).length;
    const clusterEnv = {
      ...env,
      STATION_INSTANCES: '2',
      UPLOAD_MAX_PER_MINUTE: '100000',
      UPLOAD_MAX_CONCURRENT: '16',
      // As test/e2e/service-process.ts does: beside the rest of the suite on two cores a worker's event loop
      // can lag past the guard's second, which would answer 503 OVERLOADED by design, not as a drive failure.
      OVERLOAD_MAX_EVENT_LOOP_DELAY: '0',
    };
    await run(PM2, ['start', 'ecosystem.config.cjs'], { cwd: ROOT, env: clusterEnv });
    const apps = async () => {
      const { stdout } = await run(PM2, ['jlist'], { cwd: ROOT, env });
      return (JSON.parse(stdout) as { pm2_env: { status: string; restart_time: number } }[]).map(
        (a) => a.pm2_env,
      );
    };
    await waitFor(async () => (await apps()).filter((app) => app.status === 'online').length === 2);
    await waitFor(async () => (await health()) !== null);
    // PM2 says online when a worker is spawned, not when it listens: keep-alive connections opened while
    // only one listened would all stay with it (a full suite on a loaded machine once saw one writer).
    const pidsOf = async (message: string) =>
      new Set(
        (await readFile(log, 'utf8'))
          .slice(before)
          .split('\n')
          .filter((line) => line.includes(`"${message}"`))
          .map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { pid: number }).pid),
      );
    await waitFor(async () => (await pidsOf('station service listening')).size === 2);
    const base = `http://127.0.0.1:${port}`;
    const api = httpApi(() => base, await registerAt(base, 'cluster-racer@example.org'));
    const end = Date.now() + Number(process.env.DRIVE_RACE_SECONDS ?? 60) * 1000;
    // Connections are dealt to both workers in turn: each batch of changes may meet the other worker's.
    const result = await raceOnDrive(api, { loops: 3, readers: 4, until: () => Date.now() > end });
    expect(serverErrors(result), JSON.stringify([...(result.serverCodes ?? result.statuses)])).toBe(0);
    expect(result.inconsistent).toEqual([]);
    for (let i = 0; i < 4; i++) {
      const final = await api.list();
      expect(final.status).toBe(200);
      expect(disagreements(final.body as Listing, result)).toEqual([]);
    }
    expect((await apps()).map((app) => app.restart_time)).toEqual([0, 0]);
    // Both workers changed the drive.
    expect((await pidsOf('file uploaded')).size).toBe(2);
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env });
  }, 180_000);

  it('starts the station again after it stopped itself past MEMORY_LIMIT_MB (no max_memory_restart)', async () => {
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env }).catch(() => undefined);
    const log = join(dir.path, '.zen', 'tmp', 'uplanet-station.out.log');
    const before = (await readFile(log, 'utf8').catch(() => '')).length;
    await run(PM2, ['start', 'ecosystem.config.cjs'], { cwd: ROOT, env: { ...env, MEMORY_LIMIT_MB: '1' } });
    const app = async () => {
      const { stdout } = await run(PM2, ['jlist'], { cwd: ROOT, env });
      return (
        JSON.parse(stdout) as {
          pm2_env: { restart_time: number; exit_code?: number; max_memory_restart?: unknown };
        }[]
      )[0]!.pm2_env;
    };
    expect((await app()).max_memory_restart).toBeUndefined();
    await waitFor(async () => (await app()).restart_time >= 1, 60_000);
    expect((await app()).exit_code).toBe(75);
    const stops = (await readFile(log, 'utf8'))
      .slice(before)
      .split('\n')
      .filter((line) => line.includes('memory over MEMORY_LIMIT_MB'));
    expect(stops.length).toBeGreaterThanOrEqual(1);
    await run(PM2, ['delete', 'all'], { cwd: ROOT, env });
  }, 120_000);
});
