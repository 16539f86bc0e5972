import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { Forbidden } from '../errors.js';
import type { UserLookup } from '../identity/user-store.js';
import type { Authenticator } from './authenticator.js';
import type { StationOrigins } from './origins.js';
import type { AuthContext, AuthOptions } from './types.js';

const EMPTY_SHA256 = createHash('sha256').digest('hex');
const UNREAD_BODY_LIMIT = 1024 * 1024;
const draining = new WeakSet<object>();

/**
 * The payload digest, once the body has gone by. A route that never reads its body (a GET or DELETE sent with
 * one) would leave it paused forever, and the request unanswered: the body is then drained here.
 */
function unreadBodyDigest(request: FastifyRequest): Promise<string> {
  const digest = request.bodyDigestPromise;
  if (!digest) return Promise.resolve(EMPTY_SHA256);
  const raw = request.raw;
  if (!raw.readableEnded && raw.readableFlowing !== true) {
    draining.add(raw);
    raw.resume();
  }
  return digest;
}

declare module 'fastify' {
  interface FastifyRequest {
    bodyDigestPromise: Promise<string> | null;
    receivedAt: number;
    authMemo: Map<string, Promise<AuthContext>> | null;
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Hashes the raw body as it streams past, for NIP-98 `payload` tags. A 'data' listener is added to the raw
 * request and the stream paused again at once, so whoever consumes the body (the JSON parser, or busboy for
 * multipart, which pipes `request.raw` directly) resumes it and both see every chunk.
 */
function watchBody(request: FastifyRequest): Promise<string> {
  if (!hasBody(request)) return Promise.resolve(EMPTY_SHA256);
  const hash = createHash('sha256');
  const raw = request.raw;
  let bytes = 0;
  const digest = new Promise<string>((resolve, reject) => {
    raw.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
      // A body the route never reads is drained by `unreadBodyDigest`: only up to the JSON body size.
      if (draining.has(raw) && bytes > UNREAD_BODY_LIMIT) raw.destroy(new Error('unread body too large'));
    });
    raw.once('end', () => resolve(hash.digest('hex')));
    raw.once('error', reject);
    raw.once('close', () => (raw.readableEnded ? undefined : reject(new Error('request body aborted'))));
  });
  raw.pause();
  digest.catch(() => undefined);
  return digest;
}

const notRegistered = () =>
  new Forbidden('NOT_REGISTERED', {
    en: 'This key has no user directory on this station; register first.',
    fr: 'Cette clé n’a pas de dossier utilisateur sur cette station ; inscrivez-vous d’abord.',
  });

/** Installs `request.authenticate()` and `request.requireOwner()` for every route. */
export function registerAuth(
  app: FastifyInstance,
  authenticator: Authenticator,
  users: UserLookup,
  clock: Clock,
  origins: StationOrigins,
): void {
  app.decorateRequest('bodyDigestPromise', null);
  app.decorateRequest('receivedAt', 0);
  app.decorateRequest('authMemo', null);

  app.addHook('onRequest', async (request) => {
    request.receivedAt = clock.now();
  });

  app.addHook('preParsing', async (request, _reply, payload) => {
    // Blossom bodies are the blob itself, hashed by the upload; their tokens have no payload tag to check.
    if (request.routeOptions.config.rawBody) return payload;
    if (/^nostr\s/i.test(request.headers.authorization ?? '')) request.bodyDigestPromise = watchBody(request);
    return payload;
  });

  const requestFacts = (request: FastifyRequest) => ({
    authorization: request.headers.authorization,
    url: origins.requestUrl({ protocol: request.protocol, host: request.host, path: request.url }),
    address: request.ip,
    origin: typeof request.headers.origin === 'string' ? request.headers.origin : undefined,
    method: request.method,
    bodyDigest: () => unreadBodyDigest(request),
    receivedAt: request.receivedAt,
  });

  app.decorateRequest('authenticate', function (this: FastifyRequest, options: AuthOptions = {}) {
    const key = `${options.npub ?? ''}|${options.requireProof === true}|${options.fileDigest ?? ''}`;
    this.authMemo ??= new Map();
    let pending = this.authMemo.get(key);
    if (!pending) {
      pending = authenticator.authenticate(requestFacts(this), options);
      this.authMemo.set(key, pending);
    }
    return pending;
  });

  app.decorateRequest('precheckOwner', async function (this: FastifyRequest, options: AuthOptions = {}) {
    const pubkey = await authenticator.precheck(requestFacts(this), options);
    if (pubkey && !(await users.findByHex(pubkey))) throw notRegistered();
    return pubkey;
  });

  app.decorateRequest('ownerMayFollowFile', function (this: FastifyRequest, options: AuthOptions = {}) {
    return authenticator.ownerMayFollowFile(requestFacts(this), options);
  });

  app.decorateRequest('requireOwner', async function (this: FastifyRequest, options: AuthOptions = {}) {
    const auth = await this.authenticate(options);
    const user = await users.findByHex(auth.pubkey);
    if (!user) throw notRegistered();
    return { auth, user };
  });
}
