import type { NostrEvent } from 'nostr-tools';

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

/** Structural check of a NOSTR event before any hashing or signature work. */
export function isEventShaped(value: unknown): value is NostrEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    HEX64.test(e.id) &&
    typeof e.pubkey === 'string' &&
    HEX64.test(e.pubkey) &&
    typeof e.sig === 'string' &&
    HEX128.test(e.sig) &&
    Number.isInteger(e.kind) &&
    Number.isInteger(e.created_at) &&
    typeof e.content === 'string' &&
    Array.isArray(e.tags) &&
    e.tags.every((tag) => Array.isArray(tag) && tag.every((item) => typeof item === 'string'))
  );
}

export function tagValue(event: Pick<NostrEvent, 'tags'>, name: string): string | undefined {
  return event.tags.find((tag) => tag[0] === name)?.[1];
}

/** How a relay keeps an event of this kind (NIP-01: regular, replaceable, ephemeral, addressable). */
export type KindClass = 'regular' | 'replaceable' | 'ephemeral' | 'addressable';

export function kindClass(kind: number): KindClass {
  if (kind === 0 || kind === 3 || (kind >= 10_000 && kind < 20_000)) return 'replaceable';
  if (kind >= 20_000 && kind < 30_000) return 'ephemeral';
  if (kind >= 30_000 && kind < 40_000) return 'addressable';
  return 'regular';
}

/**
 * The key under which a replaceable or addressable event replaces older versions (`<kind>:<pubkey>:<d>`, the
 * NIP-01 coordinate of an addressable event), or null for regular and ephemeral events.
 */
export function replacementKey(event: Pick<NostrEvent, 'kind' | 'pubkey' | 'tags'>): string | null {
  const kindOf = kindClass(event.kind);
  if (kindOf === 'replaceable') return `${event.kind}:${event.pubkey}:`;
  if (kindOf === 'addressable') return `${event.kind}:${event.pubkey}:${tagValue(event, 'd') ?? ''}`;
  return null;
}
