import { LRUCache } from 'lru-cache';
import type { Config } from '../config/config.js';
import { namesThisMachine } from '../config/listen.js';
import { dialableHost } from '../net/listen.js';

/** The station's base URLs as one client reaches them: what pages and answers give that client. */
export interface PublicUrls {
  /** The HTTP API, PUBLIC_URL's path prefix included, no trailing slash. */
  api: string;
  /** The station relay. */
  relay: string;
  /** The IPFS gateway, no trailing slash. */
  gateway: string;
}

/** The station's own addresses, as it dials them; some are known only once their server listens. */
export interface OwnAddresses {
  /** The station relay (the embedded relay's URL once it listens, its port resolved). */
  relay(): string;
  /** IPFS_GATEWAY, or the embedded gateway's URL once it listens. */
  gateway(): string;
  /** The port the API listens on. */
  apiPort(): number;
}

/** How a client addressed a request, as Fastify reads it (X-Forwarded-* only from TRUSTED_PROXIES). */
export interface ClientAddressing {
  /** `http` or `https`. */
  protocol: string;
  /** Host and port. */
  host: string;
}

/** A host (and port) a URL may carry as it is: the Host header is the client's to write. */
const SAFE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;
const SECURE: Record<string, string> = { 'ws:': 'wss:', 'http:': 'https:' };

/**
 * Which URLs a client is given (docs/api-contract.md §2, "Addresses given to clients"): a phone on the
 * station's Wi-Fi reaches the relay and the gateway at the host it reached the API by, never at a loopback
 * address, which on the phone is the phone. PUBLIC_URL, when set, is that host for every client; a relay or a
 * gateway configured on another machine is given as configured, and RELAY_PUBLIC_URLS names the relay as
 * clients reach it through a proxy. The one place these addresses are worked out: pages, answers and the
 * pages' Content-Security-Policy all ask here. Blossom's `server` tags are judged elsewhere, against the
 * station's own names only (src/drive/blossom/own-servers.ts).
 */
export class PublicAddresses {
  // Every request's security headers ask (src/http/csp.ts): worked out once per scheme, host and own
  // addresses. The host is the client's to write: bounded.
  private readonly known = new LRUCache<string, PublicUrls>({ max: 256 });

  constructor(
    private readonly config: Pick<Config, 'auth' | 'relay' | 'host'>,
    private readonly own: OwnAddresses,
  ) {}

  /** The same object for the same client addressing while the station's own addresses stay the same. */
  of(client: ClientAddressing): PublicUrls {
    const key = `${client.protocol} ${client.host} ${this.own.relay()} ${this.own.gateway()}`;
    let urls = this.known.get(key);
    if (!urls) {
      urls = Object.freeze(this.derive(client));
      this.known.set(key, urls);
    }
    return urls;
  }

  private derive(client: ClientAddressing): PublicUrls {
    const publicUrl = this.config.auth.publicUrls[0];
    const api = publicUrl ? publicUrl.replace(/\/+$/, '') : this.clientApi(client);
    const base = new URL(api);
    return {
      api,
      relay: this.config.relay.publicUrls[0] ?? this.rehost(this.own.relay(), base),
      gateway: this.rehost(this.own.gateway(), base),
    };
  }

  /** The origin the client addressed, as it wrote it; an unusable Host gives the API's own dialable address. */
  private clientApi(client: ClientAddressing): string {
    const given = `${client.protocol === 'https' ? 'https' : 'http'}://${client.host}`;
    if (SAFE_HOST.test(client.host) && URL.canParse(given)) return given;
    return `http://${dialableHost(this.config.host)}:${this.own.apiPort()}`;
  }

  /**
   * `target` on the client's host when it names this machine (its port kept, secured when the client came
   * over HTTPS, as browsers require); a server on another machine as configured.
   */
  private rehost(target: string, base: URL): string {
    const url = new URL(target);
    if (namesThisMachine(url.hostname, this.config.host)) {
      url.hostname = base.hostname;
      if (base.protocol === 'https:') url.protocol = SECURE[url.protocol] ?? url.protocol;
    }
    return url.href.replace(/\/+$/, '');
  }
}
