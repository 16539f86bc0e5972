import { describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../../test/helpers/nostr.js';
import { checkRelayAuth, sameRelay } from './nip42.js';

const now = Math.floor(Date.now() / 1000);
const expected = { challenge: 'c0ffee', relayUrls: ['ws://127.0.0.1:7777', 'wss://relay.example.org'], now };
const auth = (tags: string[][], kind = 22242, created_at = now) =>
  signEvent(newKey(), { kind, tags, created_at });

describe('checkRelayAuth (relay side of NIP-42)', () => {
  it('accepts the challenge of this connection for this relay', () => {
    expect(
      checkRelayAuth(
        auth([
          ['relay', 'ws://127.0.0.1:7777/'],
          ['challenge', 'c0ffee'],
        ]),
        expected,
      ),
    ).toEqual({ ok: true });
    expect(
      checkRelayAuth(
        auth([
          ['relay', 'wss://relay.example.org'],
          ['challenge', 'c0ffee'],
        ]),
        expected,
      ).ok,
    ).toBe(true);
  });

  it.each([
    [
      'another kind',
      auth(
        [
          ['relay', 'ws://127.0.0.1:7777'],
          ['challenge', 'c0ffee'],
        ],
        1,
      ),
      /kind/,
    ],
    [
      'another challenge',
      auth([
        ['relay', 'ws://127.0.0.1:7777'],
        ['challenge', 'bad'],
      ]),
      /challenge/,
    ],
    [
      'another relay',
      auth([
        ['relay', 'wss://evil.example'],
        ['challenge', 'c0ffee'],
      ]),
      /relay/,
    ],
    ['no relay tag', auth([['challenge', 'c0ffee']]), /relay/],
    [
      'an old event',
      auth(
        [
          ['relay', 'ws://127.0.0.1:7777'],
          ['challenge', 'c0ffee'],
        ],
        22242,
        now - 3600,
      ),
      /created_at/,
    ],
    [
      'a future event',
      auth(
        [
          ['relay', 'ws://127.0.0.1:7777'],
          ['challenge', 'c0ffee'],
        ],
        22242,
        now + 3600,
      ),
      /created_at/,
    ],
  ])('refuses %s', (_name, event, reason) => {
    const verdict = checkRelayAuth(event, expected);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok === false && verdict.reason).toMatch(/^invalid: /);
    expect(verdict.ok === false && verdict.reason).toMatch(reason);
  });

  it('refuses a forged signature', () => {
    const event = auth([
      ['relay', 'ws://127.0.0.1:7777'],
      ['challenge', 'c0ffee'],
    ]);
    expect(checkRelayAuth({ ...event, pubkey: newKey().hex }, expected)).toMatchObject({ ok: false });
  });

  it('compares relay URLs by scheme, host and port', () => {
    expect(sameRelay('wss://relay.example.org', 'wss://relay.example.org:443/')).toBe(true);
    expect(sameRelay('ws://relay.example.org', 'wss://relay.example.org')).toBe(false);
    expect(sameRelay('not a url', 'ws://x')).toBe(false);
  });
});
