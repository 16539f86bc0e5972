import type { NostrEvent } from 'nostr-tools';
import { verifySignature } from './verify.js';
import { tagValue } from './event-shape.js';

export const NIP42_KIND = 22242;
/** Events dated further in the future than this are refused: clocks drift, but not by hours. */
export const FUTURE_SKEW_SECONDS = 600;

export type Nip42Result =
  { ok: true; challenge: string | null } | { ok: false; code: string; reason: string };

/**
 * Checks a kind-22242 authentication event without I/O: kind, date window, signature. `maxAge` is the
 * number of seconds the event authorises for (AUTH_MAX_AGE for relay-observed events).
 */
export function verifyNip42(event: NostrEvent, now: number, maxAge: number): Nip42Result {
  if (event.kind !== NIP42_KIND) {
    return {
      ok: false,
      code: 'AUTH_WRONG_KIND',
      reason: `kind ${event.kind} is not an authentication event (22242)`,
    };
  }
  if (event.created_at < now - maxAge) {
    return { ok: false, code: 'AUTH_EXPIRED', reason: 'the authentication event is too old' };
  }
  if (event.created_at > now + FUTURE_SKEW_SECONDS) {
    return { ok: false, code: 'AUTH_EXPIRED', reason: 'the authentication event is dated in the future' };
  }
  if (!verifySignature(event))
    return { ok: false, code: 'AUTH_BAD_SIGNATURE', reason: 'the event signature is invalid' };
  return { ok: true, challenge: tagValue(event, 'challenge') ?? null };
}
