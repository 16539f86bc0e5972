import { generateSecretKey, getPublicKey } from 'nostr-tools';
import { verifyEvent } from 'nostr-tools/pure';
import { describe, expect, it } from 'vitest';
import { parseNostrAuthorization } from './authorization.js';
import { tagValue } from './event.js';
import { verifyNip98 } from './nip98.js';
import { nostrAuthorization, payloadDigest, signNip98 } from './nip98-sign.js';

const secretKey = generateSecretKey();
const clock = { now: () => 1_800_000_000_500 };
const url = 'http://127.0.0.1:54321/api/upload';

describe('signNip98', () => {
  it('signs a kind 27235 event the verifier accepts, with u, method and a nonce', () => {
    const event = signNip98({ method: 'post', url }, secretKey, clock);
    expect(event).toMatchObject({ kind: 27235, created_at: 1_800_000_000, pubkey: getPublicKey(secretKey) });
    expect(verifyEvent({ ...event })).toBe(true);
    expect(tagValue(event, 'u')).toBe(url);
    expect(tagValue(event, 'method')).toBe('POST');
    expect(tagValue(event, 'nonce')).toMatch(/^[0-9a-f]{16}$/);
    expect(tagValue(event, 'payload')).toBeUndefined();
    expect(verifyNip98(event, { url, method: 'POST', now: 1_800_000_000 })).toMatchObject({
      ok: true,
      payloadHash: null,
    });
  });

  it('binds the exact body bytes, or the digest given instead of them', () => {
    const body = new TextEncoder().encode('abc');
    const fromBody = signNip98({ method: 'POST', url, body }, secretKey, clock);
    const digest = payloadDigest(body);
    expect(digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(verifyNip98(fromBody, { url, method: 'POST', now: 1_800_000_000 })).toMatchObject({
      payloadHash: digest,
    });
    const fromDigest = signNip98(
      { method: 'POST', url, payloadSha256: digest.toUpperCase() },
      secretKey,
      clock,
    );
    expect(tagValue(fromDigest, 'payload')).toBe(digest);
  });

  it('gives two identical requests in the same second different event ids', () => {
    const first = signNip98({ method: 'GET', url }, secretKey, clock);
    const second = signNip98({ method: 'GET', url }, secretKey, clock);
    expect(first.created_at).toBe(second.created_at);
    expect(first.id).not.toBe(second.id);
  });
});

describe('nostrAuthorization', () => {
  it('is a header the station parses back into the same event, UTF-8 included', () => {
    const event = signNip98({ method: 'GET', url: `${url}?name=Ẑen` }, secretKey, clock);
    const header = nostrAuthorization(event);
    expect(header).toMatch(/^Nostr [A-Za-z0-9+/]+=*$/);
    expect(parseNostrAuthorization(header)).toEqual({ ok: true, event: JSON.parse(JSON.stringify(event)) });
  });
});
