import type { NostrEvent } from 'nostr-tools';
import { toG1Address } from '../identity/ss58.js';

/** What the station keeps of a kind-0 profile: a few display fields and the Ğ1 wallet. */
export interface Profile {
  pubkey: string;
  event_id: string;
  created_at: number;
  name: string | null;
  display_name: string | null;
  about: string | null;
  picture: string | null;
  banner: string | null;
  nip05: string | null;
  website: string | null;
  lud16: string | null;
  /** SS58 Ğ1 address (v1 keys converted), or null when the profile names none or an invalid one. */
  g1pub: string | null;
}

/** Longest text kept per field: the view is bounded in memory, and these are display fields. */
const LIMITS = {
  name: 100,
  display_name: 100,
  about: 2_000,
  picture: 1_024,
  banner: 1_024,
  nip05: 254,
  website: 1_024,
  lud16: 254,
} as const;

function text(fields: Record<string, unknown>, name: keyof typeof LIMITS): string | null {
  const value = fields[name];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, LIMITS[name]) : null;
}

/**
 * The wallet a profile names: `g1v2` or `g1pub` field of the content, or a NIP-39 style
 * `["i", "g1v2:<address>"]` / `["i", "g1pub:<v1 key>"]` tag, as UPlanet stations publish them.
 */
function walletOf(fields: Record<string, unknown>, event: NostrEvent): string | null {
  const candidates: unknown[] = [fields.g1v2, fields.g1pub];
  for (const tag of event.tags) {
    const value = tag[0] === 'i' ? tag[1] : undefined;
    const match = value ? /^(g1v2|g1pub):(.+)$/.exec(value) : null;
    if (match) candidates.push(match[2]);
  }
  for (const candidate of candidates) {
    const address = typeof candidate === 'string' ? toG1Address(candidate.trim()) : null;
    if (address) return address;
  }
  return null;
}

/** Reads a kind-0 event; null when its content is not a JSON object (a malformed profile). */
export function parseProfile(event: NostrEvent): Profile | null {
  if (event.kind !== 0) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(event.content);
  } catch {
    return null;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return null;
  const f = fields as Record<string, unknown>;
  return {
    pubkey: event.pubkey,
    event_id: event.id,
    created_at: event.created_at,
    name: text(f, 'name'),
    display_name: text(f, 'display_name'),
    about: text(f, 'about'),
    picture: text(f, 'picture'),
    banner: text(f, 'banner'),
    nip05: text(f, 'nip05'),
    website: text(f, 'website'),
    lud16: text(f, 'lud16'),
    g1pub: walletOf(f, event),
  };
}

/** NIP-01 replaceable events: the newest `created_at` wins; on a tie, the lowest id. */
export function supersedes(
  candidate: { created_at: number; event_id: string },
  current: { created_at: number; event_id: string } | undefined,
): boolean {
  if (!current) return true;
  if (candidate.created_at !== current.created_at) return candidate.created_at > current.created_at;
  return candidate.event_id < current.event_id;
}

/** Rough bytes a stored entry costs, for the view's memory bound. */
export function approximateSize(value: object): number {
  let size = 64;
  for (const field of Object.values(value)) {
    if (typeof field === 'string') size += field.length * 2;
    else if (Array.isArray(field)) size += JSON.stringify(field).length * 2;
    else size += 8;
  }
  return size;
}
