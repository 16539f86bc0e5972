import type { Config } from '../config/config.js';

/** Where a published drive's explorer finds its station: the API it writes through, the gateway it names. */
export interface DriveLinks {
  /** Base URL of the HTTP API, path prefix included, no trailing slash. */
  api: string;
  /** IPFS_GATEWAY, no trailing slash: where links to drive files are opened by default. */
  gateway: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** A host name or address a CSP source may carry as it is (a Host header is the client's to write). */
const SAFE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i;

/**
 * The API URL written into published drives: the first PUBLIC_URL (what browsers elsewhere reach, prefix
 * included), else the loopback address of the port actually listened on (`PORT`, or the one port 0 gave).
 * `HOST` is no answer: `0.0.0.0` cannot be dialled.
 */
export function driveLinks(
  config: Pick<Config, 'auth' | 'port' | 'ipfsGateway'>,
  listeningPort?: number,
): DriveLinks {
  const publicUrl = config.auth.publicUrls[0];
  const api = publicUrl ? publicUrl.replace(/\/+$/, '') : `http://127.0.0.1:${listeningPort ?? config.port}`;
  return { api, gateway: config.ipfsGateway.replace(/\/+$/, '') };
}

/**
 * The origins an explorer loaded from `pageHost` may call the API at: the API's own, and, for a loopback API
 * seen from another machine (a station on the LAN without PUBLIC_URL), the same port on the host name the
 * page was loaded by. The explorer makes the same substitution (pages/explorer/where.ts): keep them in step.
 */
export function apiSources(api: string, pageHost: string | undefined): string[] {
  const url = new URL(api);
  const sources = [url.origin];
  let page: URL | null;
  try {
    page = pageHost ? new URL(`http://${pageHost}`) : null;
  } catch {
    page = null;
  }
  if (page && LOOPBACK.has(url.hostname) && !LOOPBACK.has(page.hostname) && SAFE_HOST.test(page.hostname)) {
    url.hostname = page.hostname;
    sources.push(url.origin);
  }
  return sources;
}
