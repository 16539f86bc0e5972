import { networkInterfaces } from 'node:os';

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

function localAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? [])
      addresses.add(entry.family === 'IPv6' ? `[${entry.address}]` : entry.address);
  }
  return addresses;
}

/**
 * The absolute URL a request was sent to, when its origin is one of this station's (docs/auth.md): a
 * PUBLIC_URL (its path prefix included), or a loopback or local-interface address (a station reached on the
 * LAN needs no configuration). Any other host (a forwarded one included) yields null: a NIP-98 event signed
 * for another site's URL must never pass here.
 */
export class StationOrigins {
  private readonly local = localAddresses();

  constructor(private readonly publicUrls: readonly string[]) {}

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
    const hostname = origin.hostname;
    if (LOOPBACK.has(hostname) || hostname.startsWith('127.') || this.local.has(hostname)) {
      return `${origin.origin}${request.path}`;
    }
    return null;
  }

  /** For messages: where a client should point its `u` tag. */
  describe(): string {
    return this.publicUrls.length > 0
      ? this.publicUrls.join(', ')
      : 'a loopback or local address (set PUBLIC_URL)';
  }
}
