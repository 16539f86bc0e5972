import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config/config.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** A host name or address a CSP source may carry as it is (a Host header is the client's to write). */
const SAFE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i;

/** A ws:/wss: URL as a CSP source: scheme, host, port, and its path unless it is the root. */
function source(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

function parse(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'ws:' || url.protocol === 'wss:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The relay address a page loaded from `page` uses for `configured`: the server-side twin of
 * `browserRelayUrl` in pages/src/lib/relay-publish.ts (a loopback relay is reached by the page's host name,
 * and over wss: from an HTTPS page). Keep the two in step.
 */
export function browserRelaySource(
  configured: string,
  page: { protocol: string; hostname: string },
): string | null {
  const url = parse(configured);
  if (!url) return null;
  if (LOOPBACK.has(url.hostname) && !LOOPBACK.has(page.hostname)) {
    if (!SAFE_HOST.test(page.hostname)) return null;
    url.hostname = page.hostname;
  }
  if (page.protocol === 'https' && url.protocol === 'ws:') url.protocol = 'wss:';
  return source(url);
}

/** The relays pages may open WebSockets to: the configured ones, as configured. */
export function relaySources(config: Pick<Config, 'relayUrl' | 'relay'>, linkUrl: string): string[] {
  const urls = [config.relayUrl, linkUrl, ...config.relay.extraUrls, ...config.relay.publicUrls];
  const sources = urls
    .map(parse)
    .filter((url): url is URL => url !== null)
    .map(source);
  return [...new Set(sources)];
}

/**
 * `connect-src` for the pages: `'self'` and exactly the station's relays, plus the form the page itself
 * derives from the station relay (its host name, wss: over HTTPS), which depends on the request. No
 * `ws:`/`wss:` wildcard: a page script cannot send anything to a socket elsewhere.
 */
export interface ConnectSources {
  /** The form a page asked for by this request adds ('' when it adds nothing). */
  formOf(request: FastifyRequest): string;
  /** The directive's sources with that form. */
  sources(form: string): string[];
}

export function connectSources(app: FastifyInstance, config: Config): ConnectSources {
  const fixed = relaySources(config, app.relay.url);
  // Worked out once per scheme and host instead of parsing the relay's URL for every request. The host is
  // the client's to write: bounded.
  const forms = new LRUCache<string, string>({ max: 256 });
  return {
    formOf(request) {
      // Fastify knows the page's scheme and host through TRUSTED_PROXIES.
      const page = { protocol: request.protocol, hostname: request.hostname };
      const key = `${page.protocol} ${page.hostname}`;
      let form = forms.get(key);
      if (form === undefined) {
        const derivedForm = browserRelaySource(app.relay.url, page);
        form = derivedForm && !fixed.includes(derivedForm) ? derivedForm : '';
        forms.set(key, form);
      }
      return form;
    },
    sources: (form) => ["'self'", ...fixed, ...(form ? [form] : [])],
  };
}
