import { isIPv4, isIPv6 } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** One name the station answers by: `protocol` null for a local name (any scheme a client may write). */
interface OwnOrigin {
  host: string;
  port: string;
  protocol: string | null;
}

/** What a `server` tag names: a host, and the port and scheme when the tag spells them. */
interface NamedServer {
  host: string;
  port: string | null;
  protocol: string | null;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** The machine's own names: loopback, its host name, and the addresses of its interfaces. */
function localNames(): string[] {
  const names = new Set(LOOPBACK);
  const machine = hostname().toLowerCase();
  if (machine !== '') {
    names.add(machine);
    // Stations on a LAN are reached by their mDNS name (`astroport.local`), which only they announce there.
    if (!machine.includes('.')) names.add(`${machine}.local`);
  }
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) names.add(entry.address.toLowerCase());
  return [...names];
}

/**
 * Which Blossom `server` tags (BUD-11) name this station. They are judged against the station's own names
 * only, never against the request's Host or X-Forwarded-Host: those are the caller's to write, and a token a
 * user signed for another server (`cdn.other.example`) would pass here with `Host: cdn.other.example`. With
 * PUBLIC_URL set, its hosts are the station's names; without, the machine's local names are, with the port the
 * station listens on when a tag gives one (a station on a LAN needs no setting).
 *
 * Tags are host names (`cdn.example.com`, what blossom-client-sdk writes), but `host:port` and full URLs are
 * read too; a tag that spells a port or a scheme must match it.
 */
export class OwnServers {
  private readonly publicOrigins: OwnOrigin[];

  constructor(
    publicUrls: readonly string[],
    /** The port the API listens on (known once it listens). */
    private readonly port: () => number,
    private readonly local: readonly string[] = localNames(),
  ) {
    this.publicOrigins = publicUrls.map((base) => {
      const url = new URL(base);
      return {
        host: bare(url.hostname),
        port: url.port || DEFAULT_PORTS[url.protocol]!,
        protocol: url.protocol,
      };
    });
  }

  /** Whether `tag` names this station. */
  names(tag: string): boolean {
    const server = parseTag(tag);
    if (!server) return false;
    return this.origins(server.host).some(
      (own) =>
        own.host === server.host &&
        (server.port === null || server.port === own.port) &&
        (server.protocol === null || own.protocol === null || server.protocol === own.protocol),
    );
  }

  /** For messages: the names a token's `server` tag may give. */
  describe(): string {
    return this.publicOrigins.length > 0
      ? this.publicOrigins.map((own) => own.host).join(', ')
      : 'this machine’s local names (set PUBLIC_URL)';
  }

  private origins(host: string): OwnOrigin[] {
    if (this.publicOrigins.length > 0) return this.publicOrigins;
    const port = String(this.port());
    // An IPv4 literal only: `127.attacker.example` is a host name anyone can register.
    const loopback = isIPv4(host) && host.startsWith('127.');
    const names = loopback ? [...this.local, host] : this.local;
    return names.map((name) => ({ host: bare(name), port, protocol: null }));
  }
}

/** `cdn.example.com`, `cdn.example.com:8080`, `::1`, `[::1]:54321`, `https://cdn.example.com/`; else null. */
function parseTag(tag: string): NamedServer | null {
  const value = tag.trim().toLowerCase();
  if (isIPv6(value)) return { host: value, port: null, protocol: null };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(value);
  let url: URL;
  try {
    url = new URL(withScheme ? value : `http://${value}`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  if (!withScheme && (url.pathname !== '/' || url.search !== '' || url.hash !== '')) return null;
  const port = url.port !== '' ? url.port : withScheme ? (DEFAULT_PORTS[url.protocol] ?? null) : null;
  return { host: bare(url.hostname), port, protocol: withScheme ? url.protocol : null };
}

/** IPv6 literals without their URL brackets, so `[::1]` and `::1` are one name. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}
