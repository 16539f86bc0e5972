import { describe, expect, it } from 'vitest';
import { expirationOf, isExpired } from './nip40.js';

describe('NIP-40 expiration', () => {
  it('reads the expiration tag as unix seconds', () => {
    expect(expirationOf({ tags: [['expiration', '1700000000']] })).toBe(1_700_000_000);
    expect(
      expirationOf({
        tags: [
          ['t', 'x'],
          ['expiration', '0'],
        ],
      }),
    ).toBe(0);
  });

  it('ignores a missing or malformed expiration', () => {
    expect(expirationOf({ tags: [] })).toBeNull();
    expect(expirationOf({ tags: [['expiration']] })).toBeNull();
    for (const value of ['', 'soon', '-5', '1.5', '1e9', ' 12', '9'.repeat(20)]) {
      expect(expirationOf({ tags: [['expiration', value]] })).toBeNull();
    }
  });

  it('counts an event as expired from the second its expiration names', () => {
    const event = { tags: [['expiration', '100']] };
    expect(isExpired(event, 99)).toBe(false);
    expect(isExpired(event, 100)).toBe(true);
    expect(isExpired({ tags: [] }, 1e12)).toBe(false);
  });
});
