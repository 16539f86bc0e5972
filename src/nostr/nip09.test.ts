import { describe, expect, it } from 'vitest';
import { deletionTargets, parseCoordinate } from './nip09.js';

const alice = 'a'.repeat(64);
const bob = 'b'.repeat(64);
const id1 = '1'.repeat(64);
const id2 = '2'.repeat(64);

describe('NIP-09 deletion targets', () => {
  it('collects e ids and the author’s own a coordinates, once each', () => {
    const targets = deletionTargets({
      kind: 5,
      pubkey: alice,
      tags: [
        ['e', id1],
        ['e', id2, 'wss://relay'],
        ['e', id1],
        ['a', `30023:${alice}:my:post`],
        ['a', `10002:${alice}:`],
        ['k', '1'],
      ],
    });
    expect(targets).toEqual({ ids: [id1, id2], coordinates: [`30023:${alice}:my:post`, `10002:${alice}:`] });
  });

  it('drops coordinates of other authors and malformed values', () => {
    const targets = deletionTargets({
      kind: 5,
      pubkey: alice,
      tags: [
        ['a', `30023:${bob}:x`],
        ['a', 'nonsense'],
        ['a', `99999:${alice}:x`],
        ['e', 'ABC'],
        ['e'],
        ['a'],
      ],
    });
    expect(targets).toEqual({ ids: [], coordinates: [] });
  });

  it('names nothing for an event that is not a deletion', () => {
    expect(deletionTargets({ kind: 1, pubkey: alice, tags: [['e', id1]] })).toEqual({
      ids: [],
      coordinates: [],
    });
  });

  it('takes a coordinate apart, keeping colons of the d part', () => {
    expect(parseCoordinate(`30023:${alice}:a:b`)).toEqual({ kind: 30023, pubkey: alice, d: 'a:b' });
    expect(parseCoordinate(`0:${alice}:`)).toEqual({ kind: 0, pubkey: alice, d: '' });
    expect(parseCoordinate(`x:${alice}:`)).toBeNull();
    expect(parseCoordinate(`1:${alice}`)).toBeNull();
  });
});
