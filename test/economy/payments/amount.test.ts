import { describe, expect, it } from 'vitest';
import { centsToG1Text, likeAmountZen, zenToCents } from '../../../src/economy/payments/amount.js';
import { likeComment, readReaction } from '../../../src/economy/payments/reaction.js';
import { newKey, signEvent } from '../../helpers/nostr.js';

describe('what a reaction is worth (docs/api-contract.md §9)', () => {
  it.each([
    ['', 1],
    ['+', 1],
    [' + ', 1],
    ['👍', 1],
    ['👍🏽', 1],
    ['❤️', 1],
    ['❤', 1],
    ['♥️', 1],
    ['♥', 1],
    ['+1', 1],
    ['+5', 5],
    ['+1000', 1000],
  ])('%j pays %d Ẑen', (content, zen) => {
    expect(likeAmountZen(content)).toBe(zen);
  });

  it.each(['-', '👎', '💔', '🤙', 'nice', '+0', '+1001', '+05', '+-3', '+2.5', '++', '+ 5', '1'])(
    '%j pays nothing',
    (content) => {
      expect(likeAmountZen(content)).toBeNull();
    },
  );

  it('turns Ẑen into Ğ1 cents and the shortest Ğ1 text', () => {
    expect([1, 5, 10, 15, 1000].map(zenToCents)).toEqual([10, 50, 100, 150, 10_000]);
    expect([10, 50, 100, 150, 10_000, 1, 0].map(centsToG1Text)).toEqual([
      '0.1',
      '0.5',
      '1',
      '1.5',
      '100',
      '0.01',
      '0',
    ]);
    expect(() => centsToG1Text(-1)).toThrow(RangeError);
  });
});

describe('reading a kind-7 reaction', () => {
  const liker = newKey();
  const author = newKey();
  const e = 'e'.repeat(64);

  it('takes the last e and p tags (NIP-25) and the amount', () => {
    const event = signEvent(liker, {
      kind: 7,
      content: '+3',
      tags: [
        ['e', 'a'.repeat(64)],
        ['p', newKey().hex],
        ['e', e],
        ['p', author.hex],
      ],
    });
    expect(readReaction(event)).toEqual({
      like: {
        reactionId: event.id,
        likerHex: liker.hex,
        authorHex: author.hex,
        reactedEventId: e,
        amountZen: 3,
      },
    });
  });

  it.each([
    ['NO_E_TAG', [['p', 'b'.repeat(64)]]],
    [
      'NO_E_TAG',
      [
        ['e', 'not-hex'],
        ['p', 'b'.repeat(64)],
      ],
    ],
    ['NO_P_TAG', [['e', 'e'.repeat(64)]]],
    ['NO_P_TAG', [['e', 'e'.repeat(64)], ['p']]],
  ])('ignores %s', (reason, tags) => {
    expect(readReaction(signEvent(liker, { kind: 7, content: '+', tags }))).toEqual({ ignored: reason });
  });

  it('ignores self-likes, dislikes and other kinds', () => {
    const tags = (p: string) => [
      ['e', e],
      ['p', p],
    ];
    expect(readReaction(signEvent(liker, { kind: 7, content: '+', tags: tags(liker.hex) }))).toEqual({
      ignored: 'SELF_LIKE',
    });
    expect(readReaction(signEvent(liker, { kind: 7, content: '👎', tags: tags(author.hex) }))).toEqual({
      ignored: 'NOT_A_LIKE',
    });
    expect(readReaction(signEvent(liker, { kind: 1, content: '+', tags: tags(author.hex) }))).toEqual({
      ignored: 'NOT_A_REACTION',
    });
  });

  it('writes the transfer comment', () => {
    const event = signEvent(liker, {
      kind: 7,
      content: '+12',
      tags: [
        ['e', e],
        ['p', author.hex],
      ],
    });
    const verdict = readReaction(event);
    if (!('like' in verdict)) throw new Error('expected a like');
    expect(likeComment('g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5', 'a@b.org', verdict.like)).toBe(
      `UPLANET:g1LBF94v:a@b.org:LIKE:12Z:${event.id}`,
    );
  });
});
