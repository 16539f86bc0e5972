import type { NostrEvent } from 'nostr-tools';

const HEX64 = /^[0-9a-f]{64}$/;
const COORDINATE = /^(\d{1,5}):([0-9a-f]{64}):([\s\S]*)$/;

/** A NIP-01 coordinate `<kind>:<pubkey>:<d>` taken apart; the `d` part may itself contain colons. */
export interface Coordinate {
  kind: number;
  pubkey: string;
  d: string;
}

export function parseCoordinate(value: string): Coordinate | null {
  const match = COORDINATE.exec(value);
  if (!match) return null;
  const kind = Number(match[1]);
  if (kind > 65_535) return null;
  return { kind, pubkey: match[2] as string, d: match[3] as string };
}

/**
 * What a kind-5 deletion request (NIP-09) names: event ids from `e` tags and coordinates from `a` tags. An `a`
 * coordinate of another author is dropped here, since nobody may delete someone else's events; `e` ids can't
 * be checked without the target, so the store compares authors when it applies them.
 */
export function deletionTargets(event: Pick<NostrEvent, 'kind' | 'pubkey' | 'tags'>): {
  ids: string[];
  coordinates: string[];
} {
  const ids = new Set<string>();
  const coordinates = new Set<string>();
  if (event.kind !== 5) return { ids: [], coordinates: [] };
  for (const [name, value] of event.tags) {
    if (value === undefined) continue;
    if (name === 'e' && HEX64.test(value)) ids.add(value);
    if (name === 'a' && parseCoordinate(value)?.pubkey === event.pubkey) coordinates.add(value);
  }
  return { ids: [...ids], coordinates: [...coordinates] };
}
