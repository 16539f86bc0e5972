import { isIPv4 } from 'node:net';
import { machineNames } from '../net/machine-names.js';

/** What the URL check needs of a request, as Fastify sees it through TRUSTED_PROXIES. */
export interface RequestAddressing {
  /** `http` or `https` (X-Forwarded-Proto from a trusted proxy). */
  protocol: string;
  /** Host and port (X-Forwarded-Host from a trusted proxy, else the Host header). */
  host: string;
  /** Path and query as received. */
  path: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * The absolute URL a request was sent to, when its origin is one of this station's (docs/auth-model.md): a
 * PUBLIC_URL (its path prefix included), or a loopback or local-interface address, or the machine's own host
 * or mDNS name (a station reached on the LAN needs no configuration). Any other host (a forwarded one included) yields null: a NIP-98 event signed
 * for another site's URL must never pass here.
 */
export class StationOrigins {
  private readonly local = new Set(machineNames());
  private readonly known: Set<string>;
  /**
   * Scheme and port of the own origins that are on this machine (the embedded gateway): on any other local
   * name they are the station's too, as a phone on the LAN reaches them by the station's address.
   */
  private readonly localPorts = new Set<string>();

  /**
   * `others`: further origins that are the station's own for browsers (the IPFS gateway, CORS_ORIGINS), though
   * no NIP-98 `u` tag may name them.
   */
  constructor(
    private readonly publicUrls: readonly string[],
    others: readonly string[] = [],
  ) {
    this.known = new Set([...publicUrls, ...others].map((url) => new URL(url).origin));
    for (const origin of this.known) {
      const url = new URL(origin);
      if (this.isLocal(url.hostname)) this.localPorts.add(`${url.protocol}${url.port}`);
    }
  }

  requestUrl(request: RequestAddressing): string | null {
    let origin: URL;
    try {
      origin = new URL(`${request.protocol}://${request.host}`);
    } catch {
      return null;
    }
    for (const base of this.publicUrls) {
      const url = new URL(base);
      if (url.origin === origin.origin) return `${base.replace(/\/+$/, '')}${request.path}`;
    }
    if (this.isLocal(origin.hostname)) return `${origin.origin}${request.path}`;
    return null;
  }

  /**
   * Whether a browser's `Origin` header names one of the station's own origins: a PUBLIC_URL, the gateway,
   * CORS_ORIGINS, or the API itself (the origin this request was addressed to, `requestUrl()`'s result, also
   * under another loopback or local spelling with the same port). `null` (a sandboxed or opaque page) never is.
   */
  allowsOrigin(origin: string, requestUrl: string | null): boolean {
    if (this.known.has(origin)) return true;
    if (requestUrl === null) return false;
    let given: URL;
    try {
      given = new URL(origin);
    } catch {
      return false;
    }
    const own = new URL(requestUrl);
    if (given.origin !== origin) return false;
    if (given.origin === own.origin) return true;
    if (this.isLocal(given.hostname) && this.localPorts.has(`${given.protocol}${given.port}`)) return true;
    return (
      given.protocol === own.protocol &&
      given.port === own.port &&
      this.isLocal(given.hostname) &&
      this.isLocal(own.hostname)
    );
  }

  /** True when the request carries an Origin header that is not one of the station's (see `allowsOrigin`). */
  isForeign(origin: string | undefined, request: RequestAddressing): boolean {
    return origin !== undefined && !this.allowsOrigin(origin, this.requestUrl(request));
  }

  private isLocal(hostname: string): boolean {
    // An IPv4 literal only: `127.attacker.example` is a host name anyone can register.
    return (
      LOOPBACK.has(hostname) || (isIPv4(hostname) && hostname.startsWith('127.')) || this.local.has(hostname)
    );
  }

  /** For messages: where a client should point its `u` tag. */
  describe(): string {
    return this.publicUrls.length > 0
      ? this.publicUrls.join(', ')
      : 'a loopback or local address (set PUBLIC_URL)';
  }
}
