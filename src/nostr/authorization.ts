import type { NostrEvent } from 'nostr-tools';
import type { Localized } from '../i18n/localized.js';
import { isEventShaped } from './event.js';

/** Events in headers are small; anything bigger is not a credential. */
const MAX_HEADER_EVENT_BYTES = 16 * 1024;

export type HeaderParse = { ok: true; event: NostrEvent } | { ok: false; reason: Localized };

/**
 * Parses `Authorization: Nostr <base64 event>`, the scheme NIP-98, header NIP-42 answers and Blossom tokens
 * (BUD-01) share; returns null when the header is absent or another scheme.
 */
export function parseNostrAuthorization(header: string | undefined): HeaderParse | null {
  if (!header) return null;
  const match = /^Nostr\s+(\S+)$/i.exec(header.trim());
  if (!match) return null;
  const encoded = match[1]!;
  if (encoded.length > (MAX_HEADER_EVENT_BYTES * 4) / 3 + 4)
    return { ok: false, reason: { en: 'event too large', fr: 'événement trop volumineux' } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return { ok: false, reason: { en: 'not base64-encoded JSON', fr: 'pas du JSON encodé en base64' } };
  }
  return isEventShaped(parsed)
    ? { ok: true, event: parsed }
    : { ok: false, reason: { en: 'not a NOSTR event', fr: 'pas un événement NOSTR' } };
}
