import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import { finalizeEvent, type EventTemplate, type NostrEvent, type VerifiedEvent } from 'nostr-tools/pure';
import { unixSeconds, type Clock } from '../clock.js';

// Browser-safe on purpose: the pages bundle this module (pages/src/lib/nip98.ts), so it imports nothing from
// node: and not sign.ts, whose nostr-wasm loads with a top-level await.

export const NIP98_KIND = 27235;

export interface Nip98Request {
  method: string;
  /** Absolute URL of the request, as the station rebuilds it to check the `u` tag. */
  url: string;
  /** SHA-256 hex of the exact body bytes; leave out for a request without a body. */
  payloadSha256?: string;
}

/** SHA-256 hex of a body, for the `payload` tag. */
export function payloadDigest(body: Uint8Array): string {
  return bytesToHex(sha256(body));
}

/**
 * The unsigned kind 27235 event of one request (NIP-98): `u` and `method` bind it to the request, `payload` to
 * its body. A random `nonce` tag keeps two identical requests in the same second from signing the same event,
 * which the station would refuse as a replay (its replay records key on the event id: src/auth/replay.ts).
 */
export function nip98Template(request: Nip98Request, clock: Clock): EventTemplate {
  const tags = [
    ['u', request.url],
    ['method', request.method.toUpperCase()],
    ['nonce', bytesToHex(randomBytes(8))],
  ];
  if (request.payloadSha256 !== undefined) tags.push(['payload', request.payloadSha256.toLowerCase()]);
  return { kind: NIP98_KIND, created_at: unixSeconds(clock), tags, content: '' };
}

/** Builds and signs the NIP-98 event of one request; `body` (the exact bytes sent) gives its payload tag. */
export function signNip98(
  request: Nip98Request & { body?: Uint8Array },
  secretKey: Uint8Array,
  clock: Clock,
): VerifiedEvent {
  const payloadSha256 =
    request.payloadSha256 ?? (request.body !== undefined ? payloadDigest(request.body) : undefined);
  const template = nip98Template({ method: request.method, url: request.url, payloadSha256 }, clock);
  return finalizeEvent(template, secretKey);
}

/** The `Authorization` header value carrying a signed event: `Nostr <base64 of its JSON>`. */
export function nostrAuthorization(event: NostrEvent): string {
  return `Nostr ${base64.encode(new TextEncoder().encode(JSON.stringify(event)))}`;
}
