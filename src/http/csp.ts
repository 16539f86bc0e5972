import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import type { PublicUrls } from './public-urls.js';

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
 * The sources of the pages' policy that depend on the request: `connect-src` is `'self'` and exactly the
 * station's relays, plus the relay address this client is given (src/http/public-urls.ts: the host it came by,
 * wss: over HTTPS); `img-src`/`media-src` add the gateway address it is given (drive thumbnails and files).
 * No `ws:`/`wss:` wildcard: a page script cannot send anything to a socket elsewhere.
 */
export interface PageSources {
  /** What this request adds, as one string (the key the recorded headers are kept under). */
  variantOf(request: FastifyRequest): string;
  connect(variant: string): string[];
  media(variant: string): string[];
}

export function pageSources(app: FastifyInstance, config: Config): PageSources {
  const fixed = relaySources(config, app.relay.url);
  const gateway = new URL(config.ipfsGateway).origin;
  // One variant per answer of `app.publicUrls`, which keeps its answers (bounded) and returns the same object.
  const variants = new WeakMap<PublicUrls, string>();
  const parts = (variant: string) => variant.split(' ');
  return {
    variantOf(request) {
      const urls = app.publicUrls(request);
      let variant = variants.get(urls);
      if (variant === undefined) {
        const relay = parse(urls.relay);
        const relayForm = relay && !fixed.includes(source(relay)) ? source(relay) : '';
        const media = new URL(urls.gateway).origin;
        variant = `${relayForm} ${media === gateway ? '' : media}`;
        variants.set(urls, variant);
      }
      return variant;
    },
    connect: (variant) => ["'self'", ...fixed, ...parts(variant).slice(0, 1).filter(Boolean)],
    media: (variant) => [config.ipfsGateway, ...parts(variant).slice(1).filter(Boolean)],
  };
}
