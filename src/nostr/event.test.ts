import { describe, expect, it } from 'vitest';
import { isEventShaped, kindClass, replacementKey } from './event.js';

describe('event shape and kind classes', () => {
  it('classifies kinds as NIP-01 does', () => {
    expect([0, 3, 10_002, 19_999].map(kindClass)).toEqual(Array(4).fill('replaceable'));
    expect([20_000, 22_242, 29_999].map(kindClass)).toEqual(Array(3).fill('ephemeral'));
    expect([30_000, 30_023, 39_999].map(kindClass)).toEqual(Array(3).fill('addressable'));
    expect([1, 5, 7, 1063, 40_000].map(kindClass)).toEqual(Array(5).fill('regular'));
  });

  it('keys replaceable events by kind and author, addressable ones by their d tag too', () => {
    const pubkey = 'a'.repeat(64);
    expect(replacementKey({ kind: 0, pubkey, tags: [] })).toBe(`0:${pubkey}:`);
    expect(replacementKey({ kind: 30_023, pubkey, tags: [['d', 'post']] })).toBe(`30023:${pubkey}:post`);
    expect(replacementKey({ kind: 30_023, pubkey, tags: [] })).toBe(`30023:${pubkey}:`);
    expect(replacementKey({ kind: 1, pubkey, tags: [] })).toBeNull();
  });

  it('rejects anything that is not an event before any hashing', () => {
    expect(isEventShaped(null)).toBe(false);
    expect(isEventShaped({ id: 'x' })).toBe(false);
    expect(
      isEventShaped({
        id: 'a'.repeat(64),
        pubkey: 'b'.repeat(64),
        sig: 'c'.repeat(128),
        kind: 1,
        created_at: 1,
        content: '',
        tags: [[1]],
      }),
    ).toBe(false);
  });
});
