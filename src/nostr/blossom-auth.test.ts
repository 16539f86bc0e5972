import {
  createDeleteAuth,
  createListAuth,
  createUploadAuth,
  encodeAuthorizationHeader,
} from 'blossom-client-sdk';
import { finalizeEvent, type EventTemplate } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../../test/helpers/nostr.js';
import { parseNostrAuthorization } from './authorization.js';
import { coversBlob, verifyBlossomAuth, verifyBlossomAuthOffThread } from './blossom-auth.js';

const key = newKey();
const signer = async (draft: EventTemplate) => finalizeEvent(draft, key.sk);
const now = Math.floor(Date.now() / 1000);
const blob = 'b1674191a88ec5cdd733e4240a81803105dc412d6c6708d53ab94fc248f4f553';
const other = 'a'.repeat(64);
const isOwnServer = (tag: string) => ['station.example.org', '127.0.0.1'].includes(tag.toLowerCase());

const token = (tags: string[][], created_at = now) =>
  signEvent(key, { kind: 24242, created_at, content: 'Upload Blob', tags });

describe('verifyBlossomAuth (BUD-11)', () => {
  it('accepts the tokens blossom-client-sdk builds, from its base64url header', async () => {
    const upload = await createUploadAuth(signer, blob, { servers: 'https://station.example.org/' });
    const parsed = parseNostrAuthorization(encodeAuthorizationHeader(upload));
    expect(parsed?.ok).toBe(true);
    if (!parsed?.ok) return;
    const verdict = verifyBlossomAuth(parsed.event, { verb: 'upload', now, isOwnServer, sha256: blob });
    expect(verdict).toMatchObject({ ok: true, pubkey: key.hex, blobs: [blob] });
    const list = await createListAuth(signer);
    expect(verifyBlossomAuth(list, { verb: 'list', now, isOwnServer }).ok).toBe(true);
    const remove = await createDeleteAuth(signer, blob);
    expect(verifyBlossomAuth(remove, { verb: 'delete', now, isOwnServer, sha256: blob }).ok).toBe(true);
  });

  it.each([
    ['another kind', signEvent(key, { kind: 27235, tags: [['t', 'upload']] }), 'BLOSSOM_AUTH_WRONG_KIND'],
    [
      'created in the future',
      token(
        [
          ['t', 'upload'],
          ['expiration', String(now + 3600)],
          ['x', blob],
        ],
        now + 3600,
      ),
      'BLOSSOM_AUTH_FUTURE',
    ],
    [
      'no expiration',
      token([
        ['t', 'upload'],
        ['x', blob],
      ]),
      'BLOSSOM_AUTH_NO_EXPIRATION',
    ],
    [
      'expired',
      token([
        ['t', 'upload'],
        ['expiration', String(now - 1)],
        ['x', blob],
      ]),
      'BLOSSOM_AUTH_EXPIRED',
    ],
    [
      'another verb',
      token([
        ['t', 'delete'],
        ['expiration', String(now + 60)],
        ['x', blob],
      ]),
      'BLOSSOM_AUTH_WRONG_VERB',
    ],
    [
      'another server',
      token([
        ['t', 'upload'],
        ['expiration', String(now + 60)],
        ['x', blob],
        ['server', 'cdn.example.com'],
      ]),
      'BLOSSOM_AUTH_WRONG_SERVER',
    ],
    [
      'another blob',
      token([
        ['t', 'upload'],
        ['expiration', String(now + 60)],
        ['x', other],
      ]),
      'BLOSSOM_AUTH_WRONG_BLOB',
    ],
    [
      'no x tag on an upload',
      token([
        ['t', 'upload'],
        ['expiration', String(now + 60)],
      ]),
      'BLOSSOM_AUTH_WRONG_BLOB',
    ],
  ])('refuses a token with %s', (_name, event, code) => {
    expect(verifyBlossomAuth(event, { verb: 'upload', now, isOwnServer, sha256: blob })).toMatchObject({
      ok: false,
      code,
    });
  });

  it('refuses a tampered token, and checks the signature only after the cheap checks', () => {
    const good = token([
      ['t', 'upload'],
      ['expiration', String(now + 60)],
      ['x', blob],
    ]);
    const tampered = { ...good, tags: [...good.tags, ['x', other]] };
    expect(verifyBlossomAuth(tampered, { verb: 'upload', now, isOwnServer, sha256: other })).toMatchObject({
      code: 'BLOSSOM_AUTH_BAD_SIGNATURE',
    });
  });

  it('gives the same verdicts with the signature checked off the event loop', async () => {
    const good = token([
      ['t', 'upload'],
      ['expiration', String(now + 60)],
      ['x', blob],
    ]);
    const expected = { verb: 'upload' as const, now, isOwnServer, sha256: blob };
    expect(await verifyBlossomAuthOffThread(good, expected)).toMatchObject({ ok: true, pubkey: key.hex });
    const tampered = { ...good, created_at: good.created_at - 1 };
    expect(await verifyBlossomAuthOffThread(tampered, expected)).toMatchObject({
      code: 'BLOSSOM_AUTH_BAD_SIGNATURE',
    });
    expect(await verifyBlossomAuthOffThread(good, { ...expected, verb: 'delete' })).toMatchObject({
      code: 'BLOSSOM_AUTH_WRONG_VERB',
    });
  });

  it('leaves the blob to be checked later when the body is not read yet', () => {
    const good = token([
      ['t', 'upload'],
      ['expiration', String(now + 60)],
      ['x', blob],
    ]);
    const verdict = verifyBlossomAuth(good, { verb: 'upload', now, isOwnServer });
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(coversBlob(verdict.blobs, 'upload', blob)).toBe(true);
    expect(coversBlob(verdict.blobs, 'upload', other)).toBe(false);
    expect(coversBlob([], 'list', other)).toBe(true);
  });
});
