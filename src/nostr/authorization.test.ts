import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { describe, expect, it } from 'vitest';
import { parseNostrAuthorization } from './authorization.js';

// As it travels: plain JSON, without the marker nostr-tools puts on events it signed.
const event = structuredClone({
  ...finalizeEvent(
    { kind: 27235, created_at: 1_700_000_000, tags: [['u', 'http://127.0.0.1/x']], content: '' },
    generateSecretKey(),
  ),
});
const header = (value: unknown) => `Nostr ${Buffer.from(JSON.stringify(value)).toString('base64')}`;

describe('Authorization: Nostr <base64 event>', () => {
  it('gives back the event, whatever the case of the scheme', () => {
    expect(parseNostrAuthorization(header(event))).toEqual({ ok: true, event });
    expect(parseNostrAuthorization(`nostr ${header(event).slice(6)}`)).toEqual({ ok: true, event });
  });

  it('is null when absent or another scheme, so other credentials can be tried', () => {
    expect(parseNostrAuthorization(undefined)).toBeNull();
    expect(parseNostrAuthorization('')).toBeNull();
    expect(parseNostrAuthorization('Bearer abc')).toBeNull();
  });

  it('refuses what is not a NOSTR event, with a reason', () => {
    expect(parseNostrAuthorization('Nostr %%%')).toMatchObject({
      ok: false,
      reason: { en: 'not base64-encoded JSON' },
    });
    expect(parseNostrAuthorization(header({ kind: 1 }))).toMatchObject({
      ok: false,
      reason: { en: 'not a NOSTR event' },
    });
  });

  it('refuses an event too large to be a credential before decoding it', () => {
    const large = { ...event, content: 'x'.repeat(20_000) };
    expect(parseNostrAuthorization(header(large))).toMatchObject({
      ok: false,
      reason: { en: 'event too large' },
    });
  });
});
