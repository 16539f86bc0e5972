import type { NostrEvent } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter, validateFilter } from './filters.js';

const hex = (c: string) => c.repeat(64);
const event: NostrEvent = {
  id: hex('1'),
  pubkey: hex('a'),
  sig: hex('f').repeat(2),
  kind: 1,
  created_at: 1_000,
  content: '',
  tags: [
    ['e', hex('2')],
    ['t', 'nostr', 'extra'],
    ['t', 'relay'],
  ],
};

describe('validateFilter', () => {
  it('accepts every NIP-01 field and drops duplicate values', () => {
    const filter = {
      ids: [hex('1'), hex('1')],
      authors: [hex('a')],
      kinds: [0, 1, 65535],
      '#e': [hex('2')],
      '#T': ['x'],
      since: -5,
      until: 2_000,
      limit: 0,
    };
    expect(validateFilter(filter)).toEqual({ ...filter, ids: [hex('1')] });
    expect(validateFilter({})).toEqual({});
  });

  it('refuses what is not a filter', () => {
    expect(validateFilter(null)).toBe('a filter must be an object');
    expect(validateFilter([])).toBe('a filter must be an object');
    expect(validateFilter('x')).toBe('a filter must be an object');
  });

  it.each([
    [{ ids: hex('1') }, 'ids must be an array'],
    [{ ids: ['abc'] }, 'ids must hold only 64-character lowercase hex strings'],
    [{ authors: [hex('A')] }, 'authors must hold only 64-character lowercase hex strings'],
    [{ kinds: [1.5] }, 'kinds must hold only integers from 0 to 65535'],
    [{ kinds: [65536] }, 'kinds must hold only integers from 0 to 65535'],
    [{ kinds: ['1'] }, 'kinds must hold only integers from 0 to 65535'],
    [{ '#t': [1] }, '#t must hold only strings of at most 1024 characters'],
    [{ '#t': ['x'.repeat(1025)] }, '#t must hold only strings of at most 1024 characters'],
    [{ '#tt': ['x'] }, 'unsupported filter field: #tt'],
    [{ search: 'x' }, 'unsupported filter field: search'],
    [{ since: '1' }, 'since must be an integer'],
    [{ until: 1.5 }, 'until must be an integer'],
    [{ limit: -1 }, 'limit must be a non-negative integer'],
    [{ limit: Infinity }, 'limit must be a non-negative integer'],
  ])('refuses %j', (filter, reason) => {
    expect(validateFilter(filter)).toBe(reason);
  });

  it('bounds the length of every list', () => {
    const many = Array.from({ length: 1_001 }, (_, i) => i);
    expect(validateFilter({ kinds: many })).toBe('kinds has more than 1000 values');
    expect(validateFilter({ kinds: many.slice(0, 10) }, { maxValues: 5 })).toBe(
      'kinds has more than 5 values',
    );
    expect(validateFilter({ '#p': Array(1_001).fill('x') })).toBe('#p has more than 1000 values');
  });
});

describe('matchesFilter', () => {
  it.each([
    [{}, true],
    [{ ids: [hex('1')] }, true],
    [{ ids: [hex('3')] }, false],
    [{ authors: [hex('a')] }, true],
    [{ authors: [hex('b')] }, false],
    [{ kinds: [0, 1] }, true],
    [{ kinds: [7] }, false],
    [{ '#e': [hex('2')] }, true],
    [{ '#t': ['relay'] }, true],
    [{ '#t': ['extra'] }, false],
    [{ '#t': ['nostr'], '#e': [hex('9')] }, false],
    [{ '#p': [] }, false],
    [{ since: 1_000, until: 1_000 }, true],
    [{ since: 1_001 }, false],
    [{ until: 999 }, false],
    [{ until: 0 }, false],
  ])('%j → %s', (filter, expected) => {
    expect(matchesFilter(event, filter)).toBe(expected);
    expect(compileFilter(filter)(event)).toBe(expected);
  });
});
