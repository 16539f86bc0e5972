import { verifyEvent, type NostrEvent } from 'nostr-tools';

/**
 * Checks id and signature of an event. nostr-tools caches a positive result in a symbol property of the
 * object, and object spreads copy it; verifying a fresh copy of the signed fields means a result can never
 * be inherited by a modified event.
 */
export function verifySignature(event: NostrEvent): boolean {
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  return verifyEvent({ id, pubkey, created_at, kind, tags, content, sig });
}
