import type { NostrEvent } from 'nostr-tools';
import type { Localized } from '../i18n/localized.js';
import { verifySignature, verifySignatureOffThread } from './verify.js';
import { tagValue } from './event.js';
import { NIP98_KIND } from './nip98-sign.js';

export { NIP98_KIND };
export const NIP98_WINDOW_SECONDS = 60;

export interface Nip98Expectation {
  /** Absolute URL of the request as the client addressed it. */
  url: string;
  method: string;
  /** Unix seconds. */
  now: number;
}

export type Nip98Refusal =
  | 'AUTH_WRONG_KIND'
  | 'AUTH_EXPIRED'
  | 'AUTH_URL_MISMATCH'
  | 'AUTH_METHOD_MISMATCH'
  | 'AUTH_PAYLOAD_MISMATCH'
  | 'AUTH_BAD_SIGNATURE';

export type Nip98Result =
  | { ok: true; pubkey: string; eventId: string; payloadHash: string | null }
  | { ok: false; code: Nip98Refusal; reason: Localized };

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * NIP-98 HTTP Auth verifier. Pure: no I/O, clock passed in. Cheap checks run before the signature check so
 * a flood of junk costs no elliptic-curve work. The `payload` tag is returned, not checked: the body hash is
 * only known once the body has been read. Replay protection is the caller's job
 * (src/auth/replay.ts, keyed on the event id); tags it does not know (`nonce`) are ignored.
 */
export function verifyNip98(event: NostrEvent, expected: Nip98Expectation): Nip98Result {
  const claims = checkNip98Claims(event, expected);
  return !claims.ok || verifySignature(event) ? claims : BAD_SIGNATURE;
}

/** `verifyNip98` with the signature checked off the event loop (see verify.ts), for the request path. */
export async function verifyNip98OffThread(
  event: NostrEvent,
  expected: Nip98Expectation,
): Promise<Nip98Result> {
  const claims = checkNip98Claims(event, expected);
  return !claims.ok || (await verifySignatureOffThread(event)) ? claims : BAD_SIGNATURE;
}

const BAD_SIGNATURE: Nip98Result = {
  ok: false,
  code: 'AUTH_BAD_SIGNATURE',
  reason: { en: 'the event signature is invalid', fr: 'la signature de l’événement est invalide' },
};

/** Everything but the signature. */
function checkNip98Claims(event: NostrEvent, expected: Nip98Expectation): Nip98Result {
  if (event.kind !== NIP98_KIND) {
    return {
      ok: false,
      code: 'AUTH_WRONG_KIND',
      reason: {
        en: `kind ${event.kind} is not a NIP-98 event (27235)`,
        fr: `le kind ${event.kind} n’est pas un événement NIP-98 (27235)`,
      },
    };
  }
  if (Math.abs(expected.now - event.created_at) > NIP98_WINDOW_SECONDS) {
    return {
      ok: false,
      code: 'AUTH_EXPIRED',
      reason: {
        en: 'the NIP-98 event is more than 60 seconds from now',
        fr: 'l’événement NIP-98 est daté à plus de 60 secondes de maintenant',
      },
    };
  }
  const u = tagValue(event, 'u');
  if (!u || !sameUrl(u, expected.url)) {
    return {
      ok: false,
      code: 'AUTH_URL_MISMATCH',
      reason: {
        en: 'the u tag is not the URL of this request',
        fr: 'le tag u n’est pas l’URL de cette requête',
      },
    };
  }
  if (tagValue(event, 'method')?.toUpperCase() !== expected.method.toUpperCase()) {
    return {
      ok: false,
      code: 'AUTH_METHOD_MISMATCH',
      reason: {
        en: 'the method tag is not the method of this request',
        fr: 'le tag method n’est pas la méthode de cette requête',
      },
    };
  }
  const payload = tagValue(event, 'payload');
  if (payload !== undefined && !/^[0-9a-f]{64}$/i.test(payload)) {
    return {
      ok: false,
      code: 'AUTH_PAYLOAD_MISMATCH',
      reason: {
        en: 'the payload tag is not a SHA-256 hex digest',
        fr: 'le tag payload n’est pas une empreinte SHA-256 en hexadécimal',
      },
    };
  }
  return { ok: true, pubkey: event.pubkey, eventId: event.id, payloadHash: payload?.toLowerCase() ?? null };
}
