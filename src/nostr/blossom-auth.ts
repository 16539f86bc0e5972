import type { NostrEvent } from 'nostr-tools';
import type { Localized } from '../i18n/localized.js';
import { expirationOf } from './nip40.js';
import { verifySignature, verifySignatureOffThread } from './verify.js';

/** Blossom authorization tokens (BUD-11): a kind-24242 event in `Authorization: Nostr <base64url>`. */
export const BLOSSOM_AUTH_KIND = 24242;

export type BlossomVerb = 'get' | 'upload' | 'list' | 'delete' | 'media';

/** Clocks drift: a token signed a few seconds "in the future" by a phone is still fresh. */
export const BLOSSOM_FUTURE_SKEW_SECONDS = 60;

export interface BlossomExpectation {
  verb: BlossomVerb;
  /** Unix seconds. */
  now: number;
  /**
   * Whether a `server` tag names this server: a token with `server` tags must name it in one of them. The
   * caller judges against its own names, never a name the request gives (its Host header is the sender's).
   */
  isOwnServer: (tag: string) => boolean;
  /**
   * The blob hash the endpoint implies, when already known (from the URL or `X-SHA-256`). An upload's hash
   * may only be known once the body is read: leave it out and call `coversBlob` afterwards.
   */
  sha256?: string;
}

export type BlossomAuthCode =
  | 'BLOSSOM_AUTH_WRONG_KIND'
  | 'BLOSSOM_AUTH_FUTURE'
  | 'BLOSSOM_AUTH_NO_EXPIRATION'
  | 'BLOSSOM_AUTH_EXPIRED'
  | 'BLOSSOM_AUTH_WRONG_VERB'
  | 'BLOSSOM_AUTH_WRONG_SERVER'
  | 'BLOSSOM_AUTH_WRONG_BLOB'
  | 'BLOSSOM_AUTH_BAD_SIGNATURE';

export type BlossomAuthResult =
  | { ok: true; pubkey: string; eventId: string; expiration: number; blobs: string[] }
  | { ok: false; code: BlossomAuthCode; reason: Localized };

const refuse = (code: BlossomAuthCode, reason: Localized): BlossomAuthResult => ({ ok: false, code, reason });

const badSignature = () =>
  refuse('BLOSSOM_AUTH_BAD_SIGNATURE', {
    en: 'the token signature is invalid',
    fr: 'la signature du jeton est invalide',
  });

function tagValues(event: NostrEvent, name: string): string[] {
  return event.tags.filter((tag) => tag[0] === name && typeof tag[1] === 'string').map((tag) => tag[1]!);
}

/** The verbs whose endpoints name a blob, and so need an `x` tag for it (BUD-11's table). */
export function verbNeedsBlob(verb: BlossomVerb): boolean {
  return verb === 'upload' || verb === 'delete' || verb === 'media';
}

/** Whether a verified token's `x` tags allow acting on `sha256` (a token without `x` tags only for `get`/`list`). */
export function coversBlob(blobs: readonly string[], verb: BlossomVerb, sha256: string): boolean {
  if (blobs.length === 0) return !verbNeedsBlob(verb);
  return blobs.includes(sha256.toLowerCase());
}

/**
 * Verifies a Blossom token for one endpoint. Pure: the clock comes in, no I/O; replay is the caller's
 * concern. The cheap checks (kind, times, verb, server, blob) run before the signature, so junk costs no
 * elliptic-curve work.
 */
export function verifyBlossomAuth(event: NostrEvent, expected: BlossomExpectation): BlossomAuthResult {
  const claims = checkBlossomClaims(event, expected);
  if (!claims.ok || verifySignature(event)) return claims;
  return badSignature();
}

/** `verifyBlossomAuth` with the signature checked off the event loop (see verify.ts), for the request path. */
export async function verifyBlossomAuthOffThread(
  event: NostrEvent,
  expected: BlossomExpectation,
): Promise<BlossomAuthResult> {
  const claims = checkBlossomClaims(event, expected);
  if (!claims.ok || (await verifySignatureOffThread(event))) return claims;
  return badSignature();
}

/** Everything but the signature: what the token says, judged against the endpoint and the clock. */
function checkBlossomClaims(event: NostrEvent, expected: BlossomExpectation): BlossomAuthResult {
  if (event.kind !== BLOSSOM_AUTH_KIND)
    return refuse('BLOSSOM_AUTH_WRONG_KIND', {
      en: `kind ${event.kind} is not a Blossom token (24242)`,
      fr: `le kind ${event.kind} n’est pas un jeton Blossom (24242)`,
    });
  if (event.created_at > expected.now + BLOSSOM_FUTURE_SKEW_SECONDS)
    return refuse('BLOSSOM_AUTH_FUTURE', {
      en: 'the token was created in the future',
      fr: 'le jeton est daté du futur',
    });
  const expiration = expirationOf(event);
  if (expiration === null)
    return refuse('BLOSSOM_AUTH_NO_EXPIRATION', {
      en: 'the token has no expiration tag (NIP-40)',
      fr: 'le jeton n’a pas de tag expiration (NIP-40)',
    });
  if (expiration <= expected.now)
    return refuse('BLOSSOM_AUTH_EXPIRED', { en: 'the token has expired', fr: 'le jeton a expiré' });
  const verb = event.tags.find((tag) => tag[0] === 't')?.[1];
  if (verb !== expected.verb)
    return refuse('BLOSSOM_AUTH_WRONG_VERB', {
      en: `the token's t tag is not "${expected.verb}"`,
      fr: `le tag t du jeton n’est pas « ${expected.verb} »`,
    });
  const servers = tagValues(event, 'server');
  if (servers.length > 0 && !servers.some((server) => expected.isOwnServer(server)))
    return refuse('BLOSSOM_AUTH_WRONG_SERVER', {
      en: 'the token names other servers, not this one',
      fr: 'le jeton nomme d’autres serveurs, pas celui-ci',
    });
  const blobs = tagValues(event, 'x').map((x) => x.toLowerCase());
  if (expected.sha256 !== undefined && !coversBlob(blobs, expected.verb, expected.sha256))
    return refuse('BLOSSOM_AUTH_WRONG_BLOB', {
      en: 'the token has no x tag for this blob',
      fr: 'le jeton n’a pas de tag x pour ce blob',
    });
  if (expected.sha256 === undefined && verbNeedsBlob(expected.verb) && blobs.length === 0)
    return refuse('BLOSSOM_AUTH_WRONG_BLOB', {
      en: 'the token has no x tag',
      fr: 'le jeton n’a pas de tag x',
    });
  return { ok: true, pubkey: event.pubkey, eventId: event.id, expiration, blobs };
}
