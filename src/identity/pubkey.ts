import { LRUCache } from 'lru-cache';
import { nip19 } from 'nostr-tools';
import { InvalidInput } from '../errors.js';

export type PubkeyFormat = 'npub' | 'hex';

/**
 * Decoded npubs: a request names its user by npub, and decoding bech32 (its checksum) cost about 6 µs, a
 * few times per request. Only valid npubs are kept.
 */
const decodedNpubs = new LRUCache<string, string>({ max: 10_000 });

/** Accepts an npub or 64 hex characters; returns the lower-case hex key and the form it came in, or null. */
export function parsePubkey(input: unknown): { hex: string; format: PubkeyFormat } | null {
  if (typeof input !== 'string') return null;
  const value = input.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { hex: value.toLowerCase(), format: 'hex' };
  if (!value.startsWith('npub1')) return null;
  const known = decodedNpubs.get(value);
  if (known) return { hex: known, format: 'npub' };
  try {
    const decoded = nip19.decode(value);
    if (decoded.type !== 'npub') return null;
    decodedNpubs.set(value, decoded.data);
    return { hex: decoded.data, format: 'npub' };
  } catch {
    return null;
  }
}

/** `parsePubkey`, or 400 INVALID_NPUB for a key that is neither form. */
export function requireNpub(input: unknown): { hex: string; format: PubkeyFormat } {
  const parsed = parsePubkey(input);
  if (!parsed)
    throw new InvalidInput('INVALID_NPUB', {
      en: 'npub must be a bech32 npub or 64 hex characters.',
      fr: 'npub doit être une clé npub (bech32) ou 64 caractères hexadécimaux.',
    });
  return parsed;
}
