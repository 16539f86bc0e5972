import type { NostrEvent } from 'nostr-tools';

/**
 * The public kinds a station shares with its sisters, both ways: profiles, notes, follows, reactions, videos
 * (NIP-71 21 and 22), file metadata (NIP-94), and the replaceable lists the station reads (10001 pins). Kind
 * 22242 (NIP-42 AUTH: a login) and every other kind never leave a station nor enter it by the swarm.
 */
export const SWARM_KINDS: readonly number[] = [0, 1, 3, 7, 21, 22, 1063, 10001];

const shared = new Set(SWARM_KINDS);

/** Whether an event may cross between sisters (checked on every event, in both directions). */
export const isSwarmEvent = (event: NostrEvent): boolean => shared.has(event.kind);
