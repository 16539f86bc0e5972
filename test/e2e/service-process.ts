import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { waitFor } from '../helpers/relay.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  lines: string[];
  /** The HTTP base URL, once the service logs that it listens. */
  listening: Promise<string>;
  exited: Promise<number | null>;
}

/**
 * The real service (`src/main.ts`) as a child process with only the given environment, its event-loop guard
 * off unless `env` sets it (see test/helpers/app.ts: another test file may have the CPU). `built`: the
 * compiled `dist/src/main.js` that `npm start` runs (the caller builds it first), instead of the sources.
 */
export function startService(env: Record<string, string>, options: { built?: boolean } = {}): ServiceProcess {
  const entry = options.built
    ? [join(ROOT, 'dist', 'src', 'main.js')]
    : ['--import', 'tsx', join(ROOT, 'src', 'main.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', OVERLOAD_MAX_EVENT_LOOP_DELAY: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'station service listening' && entry.url) resolve(entry.url);
      } catch {
        // not a JSON log line
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
  });
  listening.catch(() => undefined);
  return { child, lines, listening, exited };
}

/** A port free right now on 127.0.0.1, for a service that must come back on the same one after a restart. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A whole station on loopback with ports chosen by the system: embedded relay, embedded store and gateway. */
export function loopbackEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    HOST: '127.0.0.1',
    PORT: '0',
    RELAY_URL: 'ws://127.0.0.1:0',
    EMBEDDED_RELAY: 'on',
    IPFS_GATEWAY: 'http://127.0.0.1:0',
  };
}

/**
 * The service processes a test starts and the folders they use: `cleanup` (in `afterEach`) SIGKILLs whichever
 * still run and removes the folders.
 */
export class ServiceFleet {
  private readonly services: ServiceProcess[] = [];
  private readonly dirs: TempDir[] = [];

  async dir(prefix?: string): Promise<TempDir> {
    const dir = await tempDir(prefix);
    this.dirs.push(dir);
    return dir;
  }

  /** Starts the service without waiting for it (a test watching it stop on its own). */
  spawn(env: Record<string, string>): ServiceProcess {
    const service = startService(env);
    this.services.push(service);
    return service;
  }

  /** Starts the service and resolves once its `/health` says `ok`. */
  async start(env: Record<string, string>): Promise<{ service: ServiceProcess; url: string }> {
    const service = this.spawn(env);
    const url = await service.listening;
    await waitFor(async () => {
      const health = await fetch(`${url}/health`);
      return ((await health.json()) as { status?: string }).status === 'ok';
    });
    return { service, url };
  }

  async cleanup(): Promise<void> {
    for (const service of this.services.splice(0))
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    for (const dir of this.dirs.splice(0)) await dir.cleanup();
  }
}
