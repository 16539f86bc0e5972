import type { NostrEvent } from 'nostr-tools';
import type { Localized } from '../i18n/localized.js';
import { verifySignature } from './verify.js';
import { tagValue } from './event.js';

export const NIP42_KIND = 22242;
/** Events dated further in the future than this are refused: clocks drift, but not by hours. */
export const FUTURE_SKEW_SECONDS = 600;

export type Nip42Refusal = 'AUTH_WRONG_KIND' | 'AUTH_EXPIRED' | 'AUTH_BAD_SIGNATURE';

export type Nip42Result =
  { ok: true; challenge: string | null } | { ok: false; code: Nip42Refusal; reason: Localized };

/**
 * Checks a kind-22242 authentication event without I/O: kind, date window, signature. `maxAge` is the
 * number of seconds the event authorises for (AUTH_MAX_AGE for relay-observed events).
 */
export function verifyNip42(event: NostrEvent, now: number, maxAge: number): Nip42Result {
  if (event.kind !== NIP42_KIND) {
    return {
      ok: false,
      code: 'AUTH_WRONG_KIND',
      reason: {
        en: `kind ${event.kind} is not an authentication event (22242)`,
        fr: `le kind ${event.kind} n’est pas un événement d’authentification (22242)`,
      },
    };
  }
  if (event.created_at < now - maxAge) {
    return {
      ok: false,
      code: 'AUTH_EXPIRED',
      reason: {
        en: 'the authentication event is too old',
        fr: 'l’événement d’authentification est trop ancien',
      },
    };
  }
  if (event.created_at > now + FUTURE_SKEW_SECONDS) {
    return {
      ok: false,
      code: 'AUTH_EXPIRED',
      reason: {
        en: 'the authentication event is dated in the future',
        fr: 'l’événement d’authentification est daté du futur',
      },
    };
  }
  if (!verifySignature(event))
    return {
      ok: false,
      code: 'AUTH_BAD_SIGNATURE',
      reason: { en: 'the event signature is invalid', fr: 'la signature de l’événement est invalide' },
    };
  return { ok: true, challenge: tagValue(event, 'challenge') ?? null };
}

/** NIP-42 asks relays to accept AUTH events dated within "roughly 10 minutes". */
export const AUTH_WINDOW_SECONDS = 600;

export interface RelayAuthExpectation {
  /** The challenge this relay sent on this connection. */
  challenge: string;
  /** URLs under which clients reach this relay; the event's `relay` tag must name one of them. */
  relayUrls: readonly string[];
  now: number;
}

/**
 * Relay side of NIP-42: checks the event a client sends in `["AUTH", event]`. Cheap checks come first, the
 * signature last; the reason reads as the `OK false` message.
 */
export function checkRelayAuth(
  event: NostrEvent,
  expected: RelayAuthExpectation,
): { ok: true } | { ok: false; reason: string } {
  if (event.kind !== NIP42_KIND) return { ok: false, reason: `invalid: AUTH needs kind ${NIP42_KIND}` };
  if (tagValue(event, 'challenge') !== expected.challenge)
    return { ok: false, reason: 'invalid: the challenge is not the one this connection received' };
  const relay = tagValue(event, 'relay');
  if (!relay || !expected.relayUrls.some((url) => sameRelay(url, relay)))
    return { ok: false, reason: 'invalid: the relay tag names another relay' };
  if (Math.abs(event.created_at - expected.now) > AUTH_WINDOW_SECONDS)
    return { ok: false, reason: 'invalid: created_at is too far from now' };
  if (!verifySignature(event)) return { ok: false, reason: 'invalid: bad signature' };
  return { ok: true };
}

/** Same scheme, host and port (clients differ on trailing slashes and default ports). */
export function sameRelay(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    const port = (url: URL) => url.port || (url.protocol === 'wss:' ? '443' : '80');
    return x.protocol === y.protocol && x.hostname === y.hostname && port(x) === port(y);
  } catch {
    return false;
  }
}
