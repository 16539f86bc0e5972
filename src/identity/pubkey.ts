import { nip19 } from 'nostr-tools';

export type PubkeyFormat = 'npub' | 'hex';

/** Accepts an npub or 64 hex characters; returns the lower-case hex key and the form it came in, or null. */
export function parsePubkey(input: unknown): { hex: string; format: PubkeyFormat } | null {
  if (typeof input !== 'string') return null;
  const value = input.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { hex: value.toLowerCase(), format: 'hex' };
  if (!value.startsWith('npub1')) return null;
  try {
    const decoded = nip19.decode(value);
    return decoded.type === 'npub' ? { hex: decoded.data, format: 'npub' } : null;
  } catch {
    return null;
  }
}
