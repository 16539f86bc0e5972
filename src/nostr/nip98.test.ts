import { describe, expect, it } from 'vitest';
import { verifyNip98, verifyNip98OffThread } from './nip98.js';
import { newKey, signEvent } from '../../test/helpers/nostr.js';

const key = newKey();
const now = 1_800_000_000;
const url = 'https://station.example/api/upload?x=1';

function event(tags: string[][], overrides: { kind?: number; created_at?: number } = {}) {
  return signEvent(key, { kind: 27235, created_at: now, tags, ...overrides });
}

const good = [
  ['u', url],
  ['method', 'POST'],
];

describe('verifyNip98', () => {
  it('accepts a valid event and returns the payload hash to check later', () => {
    const payload = 'a'.repeat(64);
    const result = verifyNip98(event([...good, ['payload', payload]]), { url, method: 'POST', now });
    expect(result).toEqual({ ok: true, pubkey: key.hex, eventId: expect.any(String), payloadHash: payload });
  });

  it.each([
    ['wrong u', [['u', 'https://station.example/api/delete'], good[1]!], {}, 'AUTH_URL_MISMATCH'],
    ['missing u', [good[1]!], {}, 'AUTH_URL_MISMATCH'],
    ['wrong method', [good[0]!, ['method', 'GET']], {}, 'AUTH_METHOD_MISMATCH'],
    ['bad payload tag', [...good, ['payload', 'xyz']], {}, 'AUTH_PAYLOAD_MISMATCH'],
    ['wrong kind', good, { kind: 22242 }, 'AUTH_WRONG_KIND'],
    ['61 s old', good, { created_at: now - 61 }, 'AUTH_EXPIRED'],
    ['61 s ahead', good, { created_at: now + 61 }, 'AUTH_EXPIRED'],
  ])('refuses %s', (_name, tags, overrides, code) => {
    const result = verifyNip98(event(tags as string[][], overrides), { url, method: 'POST', now });
    expect(result).toMatchObject({ ok: false, code });
  });

  it('refuses a tampered event (signature no longer matches)', () => {
    const tampered = { ...event(good), content: 'changed' };
    expect(verifyNip98(tampered, { url, method: 'POST', now })).toMatchObject({
      ok: false,
      code: 'AUTH_BAD_SIGNATURE',
    });
  });

  it('gives the same verdicts with the signature checked off the event loop', async () => {
    const expected = { url, method: 'POST', now };
    expect(await verifyNip98OffThread(event(good), expected)).toMatchObject({ ok: true, pubkey: key.hex });
    const tampered = { ...event([...good, ['nonce', '1']]), content: 'changed' };
    expect(await verifyNip98OffThread(tampered, expected)).toMatchObject({ code: 'AUTH_BAD_SIGNATURE' });
    expect(await verifyNip98OffThread(event(good), { ...expected, method: 'GET' })).toMatchObject({
      code: 'AUTH_METHOD_MISMATCH',
    });
  });

  it('compares URLs after normalisation only (default port, case of scheme and host)', () => {
    const e = event([['u', 'HTTPS://Station.Example:443/api/upload?x=1'], good[1]!]);
    expect(verifyNip98(e, { url, method: 'post', now }).ok).toBe(true);
  });
});
