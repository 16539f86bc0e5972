import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { freePort } from './service-process.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const PM2 = join(ROOT, 'node_modules', '.bin', 'pm2');

describe('PM2 deployment', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: NodeJS.ProcessEnv;
  let port: number;

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
      RELAY_URL: `ws://127.0.0.1:${relayPort}`,
      IPFS_GATEWAY: `http://127.0.0.1:${await freePort()}`,
    };
    await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, env: process.env });
  }, 180_000);

  afterAll(async () => {
    await run(PM2, ['kill'], { cwd: ROOT, env }).catch(() => undefined);
    await dir.cleanup();
  });

  it('starts the service from ecosystem.config.cjs and serves /health', async () => {
    await run(PM2, ['start', 'ecosystem.config.cjs'], { cwd: ROOT, env });
    const health = async () => {
      try {
        return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { status: string };
      } catch {
        return null;
      }
    };
    await waitFor(async () => (await health())?.status === 'ok', 30_000);
    const { stdout } = await run(PM2, ['jlist'], { cwd: ROOT, env });
    const [app] = JSON.parse(stdout) as {
      name: string;
      pm2_env: { status: string; pm_out_log_path: string };
    }[];
    expect(app).toMatchObject({ name: 'uplanet-station', pm2_env: { status: 'online' } });
    expect(app!.pm2_env.pm_out_log_path).toBe(join(dir.path, '.zen', 'tmp', 'uplanet-station.out.log'));
    await run(PM2, ['stop', 'uplanet-station'], { cwd: ROOT, env });
    await waitFor(async () => (await health()) === null, 15_000);
  }, 90_000);
});
