import type { NostrEvent } from 'nostr-tools';

/**
 * The NIP-40 expiration of an event in unix seconds, or null when it has none. Only a plain non-negative integer
 * counts: a malformed value is ignored rather than guessed at, so such an event simply never expires.
 */
export function expirationOf(event: Pick<NostrEvent, 'tags'>): number | null {
  const tag = event.tags.find((t) => t[0] === 'expiration');
  const value = tag?.[1];
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/** Whether the event's expiration has passed at `now` (unix seconds): it is due at the second it names. */
export function isExpired(event: Pick<NostrEvent, 'tags'>, now: number): boolean {
  const expiration = expirationOf(event);
  return expiration !== null && expiration <= now;
}
