import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { addUser, like, publishAll, readLog, writeRecorder } from '../streams/payment-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** One worker of a PM2 cluster: the real service entry point, sharing DATA_ROOT and TMP_DIR with the others. */
function startWorker(env: Record<string, string>): {
  child: ChildProcess;
  url: Promise<string>;
  lines: string[];
} {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'station service listening' && entry.url) resolve(entry.url);
    });
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${lines.join('\n')}`)));
  });
  url.catch(() => undefined);
  return { child, url, lines };
}

describe('two service processes on one payment journal', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  const workers: ReturnType<typeof startWorker>[] = [];

  beforeAll(async () => {
    dir = await tempDir('cluster-');
    relay = await startTestRelay();
  });
  afterAll(async () => {
    for (const { child } of workers) if (child.exitCode === null) child.kill('SIGKILL');
    await relay.close();
    await dir.cleanup();
  });

  it('pays each reaction exactly once', async () => {
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    const alice = await addUser(users, 'alice@example.org');
    const bob = await addUser(users, 'bob@example.org');
    users.close();
    const bin = join(dir.path, 'bin');
    const env = {
      HOME: dir.path,
      DATA_ROOT: join(dir.path, 'game'),
      TMP_DIR: join(dir.path, 'tmp'),
      HOST: '127.0.0.1',
      PORT: '0',
      RELAY_URL: relay.url,
      EMBEDDED_RELAY: 'off',
      IPFS_GATEWAY: 'http://127.0.0.1:0',
      PAYMENT_COMMAND: await writeRecorder(bin),
      LOG_LEVEL: 'info',
    };
    workers.push(startWorker(env), startWorker(env));
    const urls = await Promise.all(workers.map((worker) => worker.url));
    const connected = async (url: string) =>
      ((await (await fetch(`${url}/health`)).json()) as { relay: string }).relay === 'connected';
    await waitFor(async () => (await connected(urls[0]!)) && (await connected(urls[1]!)));

    const reactions = Array.from({ length: 40 }, () => like(alice.key, bob.key.hex));
    await publishAll(relay.url, reactions);
    await waitFor(async () => (await readLog(bin, 'transfers.log')).length >= reactions.length);
    // Both subscribed to every reaction; together they journaled each one exactly once.
    const queued = () =>
      workers.reduce(
        (sum, { lines }) => sum + lines.filter((line) => line.includes('"like queued"')).length,
        0,
      );
    await waitFor(() => queued() >= reactions.length);
    expect(queued()).toBe(reactions.length);

    const paid = (await readLog(bin, 'transfers.log')).map((argv) => argv[4]!.slice(-64));
    expect(paid.sort()).toEqual(reactions.map((event) => event.id).sort());
    expect(await readLog(bin, 'calls.log')).toHaveLength(reactions.length);

    const exits = workers.map(({ child }) => new Promise((resolve) => child.once('exit', resolve)));
    for (const { child } of workers) child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);
  });
});
