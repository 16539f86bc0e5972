import type { Server } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** The host as written in a URL: an IPv6 address in brackets. */
  urlHost: string;
}

/** Starts `server` on `host`:`port` (0: any free port); rejects when it cannot (port taken, no such address). */
export async function listen(server: Server, host: string, port: number): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { port: bound, urlHost: host.includes(':') ? `[${host}]` : host };
}

/** `host` as written in a URL a client on this machine can dial: a wildcard (`0.0.0.0`, `::`) becomes loopback. */
export function dialableHost(host: string): string {
  if (host === '' || host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return isIPv6(host) ? `[${host}]` : host;
}
