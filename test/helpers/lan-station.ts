import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { startStation, type Station } from '../../src/station.js';
import { tempDir } from './temp.js';

/** The address the LAN tests bind: a loopback one other than 127.0.0.1 (tests bind only 127.0.0.0/8). */
export const LAN_HOST = '127.0.0.2';

export interface LanStation {
  station: Station;
  /** The API's port on LAN_HOST. */
  port: number;
  close(): Promise<void>;
}

/** Whether every one of `ports` can be listened on at `host` now. */
export async function portsFree(host: string, ports: number[]): Promise<boolean> {
  for (const port of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}

/** The whole station (src/station.ts) with `HOST=127.0.0.2`, on temp directories; `env` adds to it. */
export async function startLanStation(env: Record<string, string> = {}): Promise<LanStation> {
  const dir = await tempDir('station-lan-');
  const config = await loadConfig({
    HOME: dir.path,
    DATA_ROOT: join(dir.path, 'game'),
    TMP_DIR: join(dir.path, 'tmp'),
    HOST: LAN_HOST,
    PORT: '0',
    OVERLOAD_MAX_EVENT_LOOP_DELAY: '0',
    STORE_GC_INTERVAL_S: '0',
    ...env,
  });
  const station = await startStation(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  return {
    station,
    port: Number(new URL(station.url).port),
    close: async () => {
      await station.close();
      await dir.cleanup();
    },
  };
}

export interface HostAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request to the station on LAN_HOST whose `Host` header says `host`, as a client that reached it by
 * another name or address would send (fetch does not let a script write `Host`).
 */
export function requestAs(
  host: string,
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<HostAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: LAN_HOST, port, path, method: options.method ?? 'GET', headers: { ...options.headers, host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
