import { authorizationHeader, newKey, nip98Header, signEvent, type TestKey } from '../helpers/nostr.js';
import { multipart } from '../helpers/multipart.js';
import { auth22242, nowSeconds } from '../helpers/relay-station.js';

export type RouteName = 'me' | 'upload' | 'delete' | 'cookie';

/** One request of the matrix, fully formed. */
export interface MatrixRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: Buffer | string;
  remoteAddress: string;
}

/** What a case needs from the running station. */
export interface MatrixContext {
  owner: TestKey;
  other: TestKey; // registered too
  legacy: TestKey; // published a 22242 without a station challenge
  challenge(key: TestKey, address: string): Promise<string>;
  /** Publishes an answer on the relay and waits until the bot consumed it. */
  answerOnRelay(key: TestKey, challenge: string): Promise<void>;
}

export const HOME = '127.0.0.1';
export const STRANGER = '198.51.100.77';

interface RouteShape {
  method: 'GET' | 'POST';
  path: string;
  /** Body and content type for a given npub field (null: none). */
  body?: (npub: string | null) => { payload: Buffer | string; contentType: string };
  /** Where the npub goes on GET routes. */
  query?: boolean;
  /** The route's own answer when authentication passes. */
  passes: { status: number; code?: string };
  /** A relay-observed login is not enough here. */
  needsProof: boolean;
}

export const ROUTES: Record<RouteName, RouteShape> = {
  me: { method: 'GET', path: '/api/me', query: true, passes: { status: 200 }, needsProof: false },
  upload: {
    method: 'POST',
    path: '/api/upload',
    body: (npub) => {
      const parts = npub ? [{ name: 'npub', value: npub }] : [];
      const form = multipart([
        ...parts,
        { name: 'file', filename: `m${Math.random()}.txt`, value: 'matrix' },
      ]);
      return { payload: form.body, contentType: form.contentType };
    },
    passes: { status: 200 },
    needsProof: false,
  },
  delete: {
    method: 'POST',
    path: '/api/delete',
    body: (npub) => ({
      payload: JSON.stringify({ file_path: 'Documents/never-uploaded.txt', ...(npub ? { npub } : {}) }),
      contentType: 'application/json',
    }),
    passes: { status: 404, code: 'FILE_NOT_FOUND' },
    needsProof: true,
  },
  // The caller's own file: the route names no npub.
  cookie: {
    method: 'GET',
    path: '/cookie/youtube.com',
    passes: { status: 404, code: 'COOKIE_NOT_FOUND' },
    needsProof: true,
  },
};

export function request(
  route: RouteName,
  options: { npub?: string | null; authorization?: string; address?: string; host?: string },
) {
  const shape = ROUTES[route];
  const npub = options.npub ?? null;
  const headers: Record<string, string> = {};
  if (options.authorization) headers.authorization = options.authorization;
  if (options.host) headers.host = options.host;
  let payload: Buffer | string | undefined;
  if (shape.body) {
    const body = shape.body(npub);
    payload = body.payload;
    headers['content-type'] = body.contentType;
  }
  const url = shape.query && npub ? `${shape.path}?npub=${npub}` : shape.path;
  return {
    method: shape.method,
    url,
    headers,
    payload,
    remoteAddress: options.address ?? HOME,
  } satisfies MatrixRequest;
}

/** A NIP-98 header for a request already built (its body hashed into `payload`). */
export function signNip98(
  key: TestKey,
  built: MatrixRequest,
  overrides: { url?: string; method?: string; createdAt?: number; body?: string } = {},
) {
  return nip98Header(key, overrides.url ?? `http://localhost${built.url}`, overrides.method ?? built.method, {
    body:
      overrides.body ??
      (typeof built.payload === 'string' || Buffer.isBuffer(built.payload) ? built.payload : undefined),
    createdAt: overrides.createdAt,
  });
}

/** Decodes a `Nostr <base64>` header, changes the event, encodes it again (signature untouched). */
export function tamper(header: string, change: (event: Record<string, unknown>) => void): string {
  const event = JSON.parse(Buffer.from(header.slice(6), 'base64').toString()) as Record<string, unknown>;
  change(event);
  return authorizationHeader(event);
}

export const flipHex = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);

export function challengeAnswer(key: TestKey, challenge: string, createdAt = nowSeconds()) {
  return authorizationHeader(auth22242(key, { tags: [['challenge', challenge]], created_at: createdAt }));
}

export const stranger = newKey();
export const wrongKind = (key: TestKey, built: MatrixRequest) =>
  authorizationHeader(
    signEvent(key, {
      kind: 1,
      tags: [
        ['u', `http://localhost${built.url}`],
        ['method', built.method],
      ],
    }),
  );
