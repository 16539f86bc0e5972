import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Reads anyone may make from any site: they carry nothing personal (balances and the grid are public data,
 * pages' assets are static). Matched on the path only; HEAD counts as GET.
 */
const PUBLIC_READS: readonly { methods: readonly string[]; path: RegExp }[] = [
  { methods: ['GET'], path: /^\/(health|favicon\.ico)?$/ },
  { methods: ['GET'], path: /^\/check_(balance|balances|society|revenue)$/ },
  { methods: ['GET'], path: /^\/api\/(nip42\/challenge|umap\/geolinks|geo\/messages|drive)$/ },
  { methods: ['GET', 'POST'], path: /^\/api\/test-nostr$/ },
  { methods: ['GET'], path: /^\/(assets|views|api\/view)\// },
];

/**
 * Blossom (BUD-01: `*` on every answer) and NIP-96 endpoints: NOSTR clients on any site call them, and they
 * act only on a token signed for the request (kind 24242, or NIP-98 with proof required), never on an
 * ambient login, so another site's page can do nothing with them that its user did not sign.
 */
const NOSTR_CLIENT_PATHS =
  /^\/(upload|mirror|media|report|list\/[^/]+|[0-9a-f]{64}(\.[A-Za-z0-9]{1,12})?|\.well-known\/nostr\/nip96\.json|upload2ipfs(\/[0-9a-f]{64}(\.[A-Za-z0-9]{1,12})?)?)$/;
const NOSTR_CLIENT_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-SHA-256',
  'X-Content-Length',
  'X-Content-Type',
  'X-Publish-Metadata',
  'Range',
  '*',
];
const NOSTR_CLIENT_EXPOSED = [
  'X-Reason',
  'Content-Length',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
  'Retry-After',
];

export function isNostrClientPath(url: string): boolean {
  return NOSTR_CLIENT_PATHS.test(pathOf(url));
}

/** Headers a cross-site page may send: NIP-98 and bodies (form, JSON, multipart). */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Accept-Language', 'If-None-Match'];
const EXPOSED_HEADERS = ['Retry-After', 'WWW-Authenticate', 'Content-Disposition', 'X-Reason', 'ETag'];
const PREFLIGHT_CACHE_SECONDS = 600;

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** For a preflight, what the real request will be: its method, and whether it carries a credential. */
function intended(request: FastifyRequest): { method: string; authorization: boolean } {
  if (request.method !== 'OPTIONS') {
    return { method: request.method, authorization: request.headers.authorization !== undefined };
  }
  const method = request.headers['access-control-request-method'];
  const headers = request.headers['access-control-request-headers'] ?? '';
  return {
    method: typeof method === 'string' ? method.toUpperCase() : 'GET',
    authorization: /(^|,)\s*authorization\s*(,|$)/i.test(headers),
  };
}

/** A public read, made without a credential: its answer is the same whoever asks it. */
export function isPublicRead(request: FastifyRequest): boolean {
  const { method, authorization } = intended(request);
  if (authorization) return false;
  const verb = method === 'HEAD' ? 'GET' : method;
  const path = pathOf(request.url);
  return PUBLIC_READS.some((entry) => entry.methods.includes(verb) && entry.path.test(path));
}

/**
 * CORS (docs/security.md, "Protection"): public reads are open to every origin (`*`, no credentials);
 * everything else — authenticated routes, registration, whatever is added later — only to the station's own
 * origins (PUBLIC_URL, the IPFS gateway, CORS_ORIGINS, the API itself), whose origin is reflected. A foreign origin
 * gets no CORS header, so its browser keeps the answer from it, and its preflight is the JSON 404.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  const shared = {
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_CACHE_SECONDS,
    credentials: false,
    // A preflight without Origin is nobody's browser: answered like any other, never with a text/plain 400.
    strictPreflight: false,
  } satisfies FastifyCorsOptions;
  // The two answers that do not depend on the caller, made once.
  const nostrClients: FastifyCorsOptions = {
    ...shared,
    origin: '*',
    methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'POST'],
    allowedHeaders: NOSTR_CLIENT_HEADERS,
    exposedHeaders: NOSTR_CLIENT_EXPOSED,
    maxAge: 86_400,
  };
  const publicReads: FastifyCorsOptions = { ...shared, origin: '*', methods: ['GET', 'HEAD', 'POST'] };
  const ownOnly = { ...shared, methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] };
  // No Origin header (scripts, tools, same-origin GETs): the same answer for every such request.
  const noOrigin: FastifyCorsOptions = { ...ownOnly, origin: false };
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      if (isNostrClientPath(request.url)) return callback(null, nostrClients);
      if (isPublicRead(request)) return callback(null, publicReads);
      const origin = request.headers.origin;
      if (origin === undefined) return callback(null, noOrigin);
      const own = !app.auth.origins.isForeign(origin, {
        protocol: request.protocol,
        host: request.host,
        path: request.url,
      });
      callback(null, { ...ownOnly, origin: own ? origin : false });
    },
  });
  // A path no route serves answers the same JSON 404 to everyone: open to every origin, so that a browser
  // client probing an endpoint this station lacks reads a 404, not a CORS failure. Preflights are not: a
  // foreign origin's preflight of a route that needs its owner stays a 404 it cannot read.
  app.addHook('onSend', async (request, reply) => {
    if (request.is404 && request.method !== 'OPTIONS' && !reply.hasHeader('access-control-allow-origin'))
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'X-Reason');
  });
}
