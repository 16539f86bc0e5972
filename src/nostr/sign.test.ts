import { generateSecretKey, getPublicKey } from 'nostr-tools';
import { verifyEvent } from 'nostr-tools/pure';
import { describe, expect, it } from 'vitest';
import { signEvent } from './sign.js';
import { verificationStats, verifySignature } from './verify.js';
import { nostrWasm } from './wasm.js';

describe('signEvent', () => {
  it('signs with nostr-wasm here', () => {
    expect(nostrWasm).not.toBeNull();
  });

  it('makes events that nostr-tools verifies, under the key that signed them', () => {
    const secretKey = generateSecretKey();
    const tags = [
      ['url', 'https://station.example/ab.jpg'],
      ['alt', 'a "quoted" line\nand an accent: Ẑen'],
    ];
    const event = signEvent(
      { kind: 1063, created_at: 1_800_000_000, tags, content: 'é\u2028\u0000' },
      secretKey,
    );
    expect(event.pubkey).toBe(getPublicKey(secretKey));
    expect(verifyEvent({ ...event })).toBe(true);
    expect(event.tags).toEqual(tags);
  });

  it('signs each event anew: a changed event no longer verifies', () => {
    const secretKey = generateSecretKey();
    const event = signEvent({ kind: 1, created_at: 1_800_000_000, tags: [], content: 'one' }, secretKey);
    expect(verifyEvent({ ...event, content: 'two' })).toBe(false);
  });

  it('is not verified again by this process, but a forged copy still fails', () => {
    const event = signEvent(
      { kind: 1, created_at: 1_800_000_000, tags: [], content: 'mine' },
      generateSecretKey(),
    );
    const before = { ...verificationStats };
    expect(verifySignature(event)).toBe(true);
    expect(verificationStats.checks).toBe(before.checks);
    expect(verificationStats.cacheHits).toBe(before.cacheHits + 1);
    expect(verifySignature({ ...event, content: 'forged' })).toBe(false);
  });
});
