import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { StationError, NotFound } from '../../errors.js';
import { chooseLanguage } from '../../i18n/language.js';
import { dialableHost, listen } from '../../net/listen.js';
import { answerClientError } from '../../http/client-errors.js';
import { statusOfError } from '../../http/error-status.js';
import type { Socket } from 'node:net';
import { contentTypeForName, sniffContentType } from './content-type.js';
import { directoryListing } from './gateway-listing.js';
import { parseRange } from './http-range.js';
import { parseIpfsPath } from './ipfs-path.js';
import type { CarLimits } from './car-walk.js';
import { serveTrustless } from './trustless.js';
import { trustlessAsk } from './trustless-request.js';
import type { ContentStore, StatResult } from './types.js';

export type GatewayStore = Pick<ContentStore, 'stat' | 'cat' | 'ls' | 'getBlock'>;

export interface GatewayOptions {
  host: string;
  port: number;
  logger?: Logger;
  /** The station's drive explorer, the one file allowed to run (see `ExplorerRoute`). */
  explorer?: ExplorerRoute;
  /** The most a CAR answer (`format=car`) walks; default car-walk.ts's DEFAULT_CAR_LIMITS. */
  carLimits?: CarLimits;
}

/**
 * The one exception to inert content: the file whose CID is `cid` (the station's drive explorer, the same
 * bytes in every drive) is served with `policy` instead of `sandbox`, and a directory that holds it as
 * `_index.html` (a drive root) redirects there. Anything else, an uploaded `_index.html` included, has
 * another CID and stays sandboxed.
 */
export interface ExplorerRoute {
  cid: string;
  name: string;
  /** The Content-Security-Policy for one request (its connect-src may depend on the Host it came by). */
  policy(req: IncomingMessage): string;
}

export interface Gateway {
  /** Base URL actually listened on (port resolved when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

/**
 * Every answer is inert: anyone's upload (an .html, an .svg) is served without scripts, plugins or its own
 * origin (`sandbox`), and never as another type than declared. Give the gateway its own host name anyway.
 */
const INERT = { 'content-security-policy': 'sandbox', 'x-content-type-options': 'nosniff' };

/** Content under a CID never changes. */
const IMMUTABLE = 'public, max-age=29030400, immutable';

/** The language of an error's detail, chosen as the API chooses it (docs/api-contract.md §6). */
const detailLanguage = (req: IncomingMessage) =>
  chooseLanguage(
    {
      lang: /[?&]lang=(fr|en)\b/.exec(req.url ?? '')?.[1],
      acceptLanguage: req.headers['accept-language'],
    },
    'en',
  );

function sendError(req: IncomingMessage, res: ServerResponse, error: unknown, logger?: Logger): void {
  const appError = error instanceof StationError ? error : null;
  const status = appError ? statusOfError(appError) : 500;
  if (status >= 500) logger?.error({ err: error }, 'gateway request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const detail = appError?.detail ?? { en: 'Internal error', fr: 'Erreur interne' };
  const body = { detail: detail[detailLanguage(req)], code: appError?.code ?? 'INTERNAL' };
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function firstBytes(store: GatewayStore, path: string, signal: AbortSignal): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of store.cat(path, { length: 512, signal })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function disposition(name: string, download: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  store: GatewayStore,
  target: { path: string; name: string | null; stat: StatResult; url: URL; signal: AbortSignal },
): Promise<void> {
  const { path, stat, url, signal } = target;
  const filename = url.searchParams.get('filename') ?? target.name;
  const type =
    (filename ? contentTypeForName(filename) : null) ??
    (stat.size > 0 ? sniffContentType(await firstBytes(store, path, signal)) : 'application/octet-stream');
  res.setHeader('content-type', type);
  res.setHeader('accept-ranges', 'bytes');
  const download = url.searchParams.get('download') === 'true';
  if (url.searchParams.has('filename') || download)
    res.setHeader('content-disposition', disposition(filename ?? stat.cid, download));

  const range = parseRange(req.headers.range, stat.size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${stat.size}`, 'content-type': 'text/plain' });
    res.end();
    return;
  }
  const start = range?.start ?? 0;
  const length = range ? range.end - range.start + 1 : stat.size;
  if (range) res.setHeader('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
  res.writeHead(range ? 206 : 200, { 'content-length': String(length) });
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  await pipeline(Readable.from(store.cat(path, { offset: start, length, signal })), res);
}

/** `/ipfs/<root>/` → `_index.html`, `/ipfs/<root>` → `<root>/_index.html`: relative, so a proxy prefix stays. */
function redirectToExplorer(res: ServerResponse, url: URL, name: string): void {
  const last = url.pathname.endsWith('/') ? '' : `${url.pathname.split('/').at(-1)}/`;
  res.writeHead(302, { location: `${last}${encodeURIComponent(name)}`, 'cache-control': 'no-cache' });
  res.end();
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  store: GatewayStore,
  signal: AbortSignal,
  options: GatewayOptions,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' });
    const detail = { en: 'The gateway is read-only.', fr: 'La passerelle est en lecture seule.' };
    res.end(JSON.stringify({ detail: detail[detailLanguage(req)], code: 'METHOD_NOT_ALLOWED' }));
    return;
  }
  const url = new URL(req.url ?? '/', 'http://gateway');
  if (!url.pathname.startsWith('/ipfs/'))
    throw new NotFound('NOT_FOUND', {
      en: 'Only /ipfs/<cid>[/<path>] is served here.',
      fr: 'Seul /ipfs/<cid>[/<chemin>] est servi ici.',
    });
  const parsed = parseIpfsPath(url.pathname);
  // Trustless Gateway formats (raw block, CAR): trustless.ts.
  const ask = trustlessAsk(req, url);
  if (ask) return serveTrustless({ req, res, store, path: parsed, signal, limits: options.carLimits }, ask);
  const { explorer } = options;
  const stat = await store.stat(parsed.path, { signal });
  res.setHeader('vary', 'Accept');
  const etag = `"${stat.cid}"`;
  res.setHeader('etag', etag);
  res.setHeader('cache-control', IMMUTABLE);
  // Header values must be ASCII: names are percent-encoded as in a URL.
  res.setHeader('x-ipfs-path', `/ipfs/${parsed.path.split('/').map(encodeURIComponent).join('/')}`);
  res.setHeader('access-control-allow-origin', '*');
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  if (stat.type === 'directory') {
    const entries = await store.ls(parsed.path, { signal });
    if (explorer && entries.some((e) => e.name === explorer.name && e.cid === explorer.cid))
      return redirectToExplorer(res, url, explorer.name);
    const html = directoryListing(parsed.path, entries);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  const name = parsed.segments.at(-1) ?? null;
  if (explorer && stat.cid === explorer.cid) {
    res.setHeader('content-security-policy', explorer.policy(req));
    res.setHeader('referrer-policy', 'no-referrer');
  }
  await serveFile(req, res, store, { path: parsed.path, name, stat, url, signal });
}

/** A read-only HTTP gateway (`/ipfs/<cid>[/<path>]`) over a content store, separate from the API server. */
export async function startGateway(store: GatewayStore, options: GatewayOptions): Promise<Gateway> {
  const server = createServer((req, res) => {
    const controller = new AbortController();
    // The UnixFS exporter listens on the signal once per block read in flight.
    setMaxListeners(0, controller.signal);
    res.on('close', () => controller.abort());
    for (const [name, value] of Object.entries(INERT)) res.setHeader(name, value);
    handle(req, res, store, controller.signal, options).catch((error: unknown) => {
      if (!controller.signal.aborted) sendError(req, res, error, options.logger);
    });
  });
  // What Node's parser refuses is answered `{detail, code}` here too, as on the API.
  server.on('clientError', (error, socket) => answerClientError(error, socket as Socket, options.logger));
  const { port, urlHost } = await listen(server, options.host, options.port);
  return {
    url: `http://${dialableHost(urlHost)}:${port}`,
    close: async () => {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
