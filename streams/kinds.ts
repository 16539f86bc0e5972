import type { NostrEvent } from 'nostr-tools';
import { filter, type OperatorFunction } from 'rxjs';

/**
 * The kinds the station subscribes to (docs/architecture.md): profiles, notes, follows, reactions, videos,
 * playlists, auth.
 */
export const STATION_KINDS = [0, 1, 3, 7, 21, 22, 10001, 22242] as const;

export function ofKinds(...kinds: number[]): OperatorFunction<NostrEvent, NostrEvent> {
  const wanted = new Set(kinds);
  return filter((event) => wanted.has(event.kind));
}
