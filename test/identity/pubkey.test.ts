import { generateSecretKey, getPublicKey, nip19 } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { parsePubkey } from '../../src/identity/pubkey.js';

describe('parsePubkey', () => {
  const secret = generateSecretKey();
  const hex = getPublicKey(secret);
  const npub = nip19.npubEncode(hex);

  it('reads an npub the same way every time (the second time from the decoded cache)', () => {
    expect(parsePubkey(npub)).toEqual({ hex, format: 'npub' });
    expect(parsePubkey(` ${npub} `)).toEqual({ hex, format: 'npub' });
    expect(parsePubkey(npub)).toEqual({ hex, format: 'npub' });
  });

  it('reads 64 hex characters in any case', () => {
    expect(parsePubkey(hex.toUpperCase())).toEqual({ hex, format: 'hex' });
  });

  it('refuses what is not a public key, even one character away from a known npub', () => {
    const flipped = npub.slice(0, -1) + (npub.endsWith('q') ? 'p' : 'q');
    expect(parsePubkey(flipped)).toBeNull();
    expect(parsePubkey(nip19.nsecEncode(secret))).toBeNull();
    expect(parsePubkey('npub1')).toBeNull();
    expect(parsePubkey(hex.slice(1))).toBeNull();
    expect(parsePubkey(42)).toBeNull();
  });
});
