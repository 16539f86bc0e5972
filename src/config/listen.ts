import { isIPv4 } from 'node:net';
import { dialableHost } from '../net/listen.js';
import { raw, url, type Env } from './parse.js';

/** Hosts that listen on every interface: a client on this machine dials them on loopback. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** IPv6 literals without their URL brackets. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** A name of this machine as the station writes it in its own URLs: loopback, a wildcard, or HOST itself. */
export function namesThisMachine(hostname: string, host: string): boolean {
  const name = bare(hostname).toLowerCase();
  return (
    LOOPBACK.has(name) ||
    (isIPv4(name) && name.startsWith('127.')) ||
    WILDCARDS.has(name) ||
    name === bare(host).toLowerCase()
  );
}

/** The embedded relay's and gateway's addresses: how the station dials them, and where they listen. */
export interface EmbeddedAddresses {
  /** RELAY_URL, or `ws://<HOST>:7777` (a wildcard HOST dialled on loopback). */
  relayUrl: string;
  /** IPFS_GATEWAY, or `http://<HOST>:8080`, likewise. */
  ipfsGateway: string;
  listen: {
    /** Where the embedded relay listens: HOST when RELAY_URL is unset, else RELAY_URL's host, as before. */
    relay: string;
    /** Where the embedded gateway listens: IPFS_GATEWAY's host when it is a loopback name, else HOST. */
    gateway: string;
    /**
     * RELAY_URL was left unset: the relay at the derived address is the station's own, so `EMBEDDED_RELAY=auto`
     * starts it whatever HOST is (an explicit RELAY_URL is embedded in `auto` only when it is a loopback one).
     */
    relayIsDerived: boolean;
  };
}

/**
 * A community station is used from phones on its Wi-Fi (docs/api-contract.md §2): by default the
 * embedded relay and gateway listen where the API does (HOST). An operator's explicit RELAY_URL / IPFS_GATEWAY
 * keeps the host it names, as before this default existed: a second station on one machine, a loopback-only
 * relay behind a proxy.
 */
export function embeddedAddresses(env: Env, host: string): EmbeddedAddresses {
  const dialled = dialableHost(host);
  const relayUrl = url(env, 'RELAY_URL', `ws://${dialled}:7777`, ['ws:', 'wss:'])!;
  const ipfsGateway = url(env, 'IPFS_GATEWAY', `http://${dialled}:8080`, ['http:', 'https:'])!;
  const relayIsDerived = raw(env, 'RELAY_URL') === undefined;
  const gatewayHost = bare(new URL(ipfsGateway).hostname);
  const gatewayGiven = raw(env, 'IPFS_GATEWAY') !== undefined;
  return {
    relayUrl,
    ipfsGateway,
    listen: {
      relay: relayIsDerived ? host : bare(new URL(relayUrl).hostname),
      gateway: gatewayGiven && LOOPBACK.has(gatewayHost) ? gatewayHost : host,
      relayIsDerived,
    },
  };
}
