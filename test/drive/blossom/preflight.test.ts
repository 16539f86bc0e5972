import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, type TestKey } from '../../helpers/nostr.js';
import { blossomToken, bytesOf, expectError, nostrAuth, putUpload, sha256Hex, uploadAs } from './requests.js';
import { driveFiles, localUser, startBlossomStation, type BlossomStation } from './station.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';

describe('BUD-06 HEAD /upload, CORS and the read side’s refusals', () => {
  let s: BlossomStation;
  let alice: TestKey;
  let bob: TestKey;

  beforeAll(async () => {
    s = await startBlossomStation({ RATE_LIMIT_MAX: '100000', PUBLISH_FILE_METADATA: 'false' });
    alice = await localUser(s, ALICE);
    bob = await localUser(s, BOB);
  });
  afterAll(() => s.stop());

  const preflight = (headers: Record<string, string>) =>
    fetch(`${s.server}/upload`, { method: 'HEAD', headers });

  /** A HEAD refusal: the status and an X-Reason, and no body. */
  async function expectHeadRefusal(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('x-reason'), 'X-Reason header').toBeTruthy();
    expect(await response.text()).toBe('');
  }

  /** The preflight headers for `bytes`, with a valid upload token of `key` unless told otherwise. */
  const preflightHeaders = (bytes: Buffer, key: TestKey | null = alice, length = bytes.length) => {
    const headers: Record<string, string> = {
      'x-sha-256': sha256Hex(bytes),
      'x-content-length': String(length),
      'x-content-type': 'application/octet-stream',
    };
    if (key) headers.authorization = nostrAuth(blossomToken(key, { x: [sha256Hex(bytes)] }));
    return headers;
  };

  describe('HEAD /upload', () => {
    it('answers 401 without Authorization, with an X-Reason and no body', async () => {
      const response = await preflight(preflightHeaders(randomBytes(100), null));
      await expectHeadRefusal(response, 401);
      expect(response.headers.get('www-authenticate')).toBe('Nostr');
    });

    it('answers 400 without X-SHA-256', async () => {
      const bytes = randomBytes(100);
      const { 'x-sha-256': _hash, ...headers } = preflightHeaders(bytes);
      await expectHeadRefusal(await preflight(headers), 400);
    });

    it('answers 400 for an X-SHA-256 that is not a hash', async () => {
      const headers = { ...preflightHeaders(randomBytes(100)), 'x-sha-256': 'not-a-hash' };
      await expectHeadRefusal(await preflight(headers), 400);
    });

    it('answers 411 without X-Content-Length', async () => {
      const { 'x-content-length': _length, ...headers } = preflightHeaders(randomBytes(100));
      await expectHeadRefusal(await preflight(headers), 411);
    });

    it('answers 401 for a token naming other bytes than X-SHA-256', async () => {
      const headers = {
        ...preflightHeaders(randomBytes(100)),
        authorization: nostrAuth(blossomToken(alice, { x: [sha256Hex(randomBytes(100))] })),
      };
      await expectHeadRefusal(await preflight(headers), 401);
    });

    it('answers 200 for a valid token without spending it: the same token then uploads, once', async () => {
      const bytes = randomBytes(5000);
      const headers = preflightHeaders(bytes);
      const ok = await preflight(headers);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('');
      // A second preflight with the same token is still fine: nothing was spent.
      expect((await preflight(headers)).status).toBe(200);

      const put = await putUpload(s, bytes, { authorization: headers.authorization! });
      expect(put.status, await put.clone().text()).toBe(201);
      expect(await put.json()).toMatchObject({ sha256: sha256Hex(bytes), size: bytes.length });

      const again = await putUpload(s, bytes, { authorization: headers.authorization! });
      await expectError(again, 401, 'AUTH_REPLAYED');
      // And a spent token no longer passes the preflight either.
      await expectHeadRefusal(await preflight(headers), 401);
      expect((await driveFiles(s, ALICE)).filter((f) => f.sha256 === sha256Hex(bytes))).toHaveLength(1);
    });

    it('answers 413 when X-Content-Length is above the room left in the quota, 200 at exactly the room', async () => {
      const user = await s.station.t.deps.users.findByEmail(ALICE);
      const used = await s.station.t.app.drive.usedBytes(user!);
      const room = s.station.t.config.driveQuotaBytes - used;
      const bytes = randomBytes(100);
      await expectHeadRefusal(await preflight(preflightHeaders(bytes, alice, room + 1)), 413);
      expect((await preflight(preflightHeaders(bytes, alice, room))).status).toBe(200);
    });

    it('answers 403 for a valid token of a key with no drive on the station', async () => {
      await expectHeadRefusal(await preflight(preflightHeaders(randomBytes(100), newKey())), 403);
    });
  });

  describe('CORS', () => {
    it('lets any site’s client preflight a PUT /upload with its Blossom headers', async () => {
      const response = await fetch(`${s.server}/upload`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization,x-sha-256,content-type',
        },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase());
      // Authorization is never covered by a `*`: it must be named.
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'x-sha-256', 'content-type']));
      const methods = (response.headers.get('access-control-allow-methods') ?? '').toUpperCase();
      expect(methods.split(',').map((m) => m.trim())).toContain('PUT');
    });

    it('serves blobs to any origin, sandboxed and never sniffed', async () => {
      const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
      expect((await uploadAs(s, alice, html, { 'content-type': 'text/html' })).status).toBe(201);
      const response = await fetch(`${s.server}/${sha256Hex(html)}`, {
        headers: { origin: 'https://app.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await bytesOf(response)).equals(html)).toBe(true);
      // An error answer is readable cross-origin too, X-Reason included.
      const missing = await fetch(`${s.server}/${sha256Hex(randomBytes(8))}`, {
        headers: { origin: 'https://app.example' },
      });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe('*');
      expect((missing.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain(
        'x-reason',
      );
    });

    it('answers an endpoint it lacks (`/media`) and any unknown path with a 404 a foreign page can read', async () => {
      const origin = 'https://app.example';
      const probe = await fetch(`${s.server}/media`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(probe.headers.get('access-control-allow-origin')).toBe('*');
      for (const path of ['/media', '/no/such/route']) {
        const response = await fetch(`${s.server}${path}`, { method: 'PUT', headers: { origin } });
        await expectError(response, 404, 'NOT_FOUND');
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-reason');
      }
    });

    it('gives every blob url an extension, `.bin` for application/octet-stream (BUD-02)', async () => {
      const bytes = randomBytes(300);
      const response = await uploadAs(s, alice, bytes, { 'content-type': 'application/octet-stream' });
      expect(response.status).toBe(201);
      const { url } = (await response.json()) as { url: string };
      expect(url.endsWith(`/${sha256Hex(bytes)}.bin`)).toBe(true);
      const back = await fetch(url);
      expect(back.status).toBe(200);
      expect((await bytesOf(back)).equals(bytes)).toBe(true);
    });
  });

  describe('reading and deleting blobs', () => {
    let held: Buffer;

    beforeAll(async () => {
      held = randomBytes(10_000);
      const response = await uploadAs(s, bob, held);
      expect(response.status).toBe(201);
    });

    it('answers a HEAD of an unknown hash with 404 and an X-Reason', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(randomBytes(8))}`, { method: 'HEAD' });
      await expectHeadRefusal(response, 404);
    });

    it('answers a GET of an unknown hash with an extension with 404 BLOB_NOT_FOUND', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(randomBytes(8))}.png`);
      await expectError(response, 404, 'BLOB_NOT_FOUND');
    });

    it('answers a path that is not a hash with the generic 404 NOT_FOUND', async () => {
      await expectError(await fetch(`${s.server}/not-a-hash`), 404, 'NOT_FOUND');
      // 63 hex characters, or uppercase hex, are not blob paths either.
      await expectError(await fetch(`${s.server}/${sha256Hex(held).slice(1)}`), 404, 'NOT_FOUND');
    });

    it('serves the bytes under an extension that is not theirs (the hash names the blob)', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(held)}.pdf`);
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(held)).toBe(true);
    });

    it('answers a range past the end with 416 and content-range bytes */size', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(held)}`, {
        headers: { range: `bytes=${held.length}-${held.length + 100}` },
      });
      expect(response.headers.get('content-range')).toBe(`bytes */${held.length}`);
      await expectError(response, 416);
    });

    it('answers a range inside the blob with 206 and those bytes', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(held)}`, { headers: { range: 'bytes=-100' } });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(
        `bytes ${held.length - 100}-${held.length - 1}/${held.length}`,
      );
      expect((await bytesOf(response)).equals(held.subarray(held.length - 100))).toBe(true);
    });

    it('refuses a DELETE without a token (401) and keeps the blob', async () => {
      const response = await fetch(`${s.server}/${sha256Hex(held)}`, { method: 'DELETE' });
      await expectError(response, 401, 'BLOSSOM_AUTH_REQUIRED');
      expect((await fetch(`${s.server}/${sha256Hex(held)}`)).status).toBe(200);
    });

    it('answers 404 to a DELETE of a blob the caller does not hold, even one another user holds', async () => {
      const hash = sha256Hex(held);
      const token = blossomToken(alice, { verb: 'delete', x: [hash] });
      const response = await fetch(`${s.server}/${hash}`, {
        method: 'DELETE',
        headers: { authorization: nostrAuth(token) },
      });
      await expectError(response, 404, 'BLOB_NOT_FOUND');
      expect((await driveFiles(s, BOB)).some((f) => f.sha256 === hash)).toBe(true);
      const back = await fetch(`${s.server}/${hash}`);
      expect(back.status).toBe(200);
      expect((await bytesOf(back)).equals(held)).toBe(true);
    });

    it('refuses a DELETE with a t=upload token (401 BLOSSOM_AUTH_WRONG_VERB)', async () => {
      const hash = sha256Hex(held);
      const token = blossomToken(bob, { verb: 'upload', x: [hash] });
      const response = await fetch(`${s.server}/${hash}`, {
        method: 'DELETE',
        headers: { authorization: nostrAuth(token) },
      });
      await expectError(response, 401, 'BLOSSOM_AUTH_WRONG_VERB');
      expect((await driveFiles(s, BOB)).some((f) => f.sha256 === hash)).toBe(true);
    });

    it('refuses a DELETE token naming another blob (401 BLOSSOM_AUTH_WRONG_BLOB)', async () => {
      const hash = sha256Hex(held);
      const token = blossomToken(bob, { verb: 'delete', x: [sha256Hex(randomBytes(8))] });
      const response = await fetch(`${s.server}/${hash}`, {
        method: 'DELETE',
        headers: { authorization: nostrAuth(token) },
      });
      await expectError(response, 401, 'BLOSSOM_AUTH_WRONG_BLOB');
      expect((await driveFiles(s, BOB)).some((f) => f.sha256 === hash)).toBe(true);
    });

    it('deletes with the holder’s t=delete token, once (the control of the refusals above)', async () => {
      const hash = sha256Hex(held);
      const authorization = nostrAuth(blossomToken(bob, { verb: 'delete', x: [hash] }));
      const response = await fetch(`${s.server}/${hash}`, { method: 'DELETE', headers: { authorization } });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'success', sha256: hash });
      expect((await driveFiles(s, BOB)).some((f) => f.sha256 === hash)).toBe(false);
      await expectError(await fetch(`${s.server}/${hash}`), 404, 'BLOB_NOT_FOUND');
      // Nothing left to delete: the same token again finds nothing.
      const again = await fetch(`${s.server}/${hash}`, { method: 'DELETE', headers: { authorization } });
      await expectError(again, 404, 'BLOB_NOT_FOUND');
    });
  });
});
