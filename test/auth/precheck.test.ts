import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthServices, type AuthServices } from '../../src/auth/services.js';
import { Forbidden } from '../../src/errors.js';
import { authorizationHeader, newKey, nip98Header, signEvent } from '../helpers/nostr.js';
import { tempDir } from '../helpers/temp.js';

/** Pre-checks let an upload be refused before its body is streamed, without spending the credential. */
describe('Authenticator.precheck', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let auth: AuthServices;
  const key = newKey();
  const url = 'http://localhost/api/upload';
  const request = (authorization?: string) => ({
    authorization,
    url,
    address: '127.0.0.1',
    method: 'POST',
    bodyDigest: () => Promise.resolve('0'.repeat(64)),
  });

  beforeAll(async () => {
    dir = await tempDir();
    const config = {
      dataRoot: dir.path,
      authMaxAgeSeconds: 3600,
      authRequireProof: false,
      auth: { publicUrls: [], legacyRelayLogin: false, corsOrigins: [] },
    };
    auth = await createAuthServices({ config, clock: { now: () => Date.now() } });
  });
  afterAll(async () => {
    await auth.close();
    await dir.cleanup();
  });

  it('answers the key of a valid NIP-98 header without consuming it', async () => {
    const header = nip98Header(key, url, 'POST');
    expect(await auth.authenticator.precheck(request(header))).toBe(key.hex);
    expect(await auth.authenticator.precheck(request(header))).toBe(key.hex);
    expect((await auth.authenticator.authenticate(request(header))).pubkey).toBe(key.hex);
    await expect(auth.authenticator.authenticate(request(header))).rejects.toMatchObject({
      code: 'AUTH_REPLAYED',
    });
  });

  it('refuses at once what can never pass: wrong URL, bad signature, another key than the npub', async () => {
    await expect(
      auth.authenticator.precheck(request(nip98Header(key, 'http://localhost/x', 'POST'))),
    ).rejects.toMatchObject({
      code: 'AUTH_URL_MISMATCH',
    });
    const event = JSON.parse(Buffer.from(nip98Header(key, url, 'POST').slice(6), 'base64').toString());
    await expect(
      auth.authenticator.precheck(request(authorizationHeader({ ...event, content: 'x' }))),
    ).rejects.toMatchObject({
      code: 'AUTH_BAD_SIGNATURE',
    });
    await expect(
      auth.authenticator.precheck(request(nip98Header(key, url, 'POST')), { npub: newKey().npub }),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('checks an issued challenge without consuming it', async () => {
    const { challenge } = await auth.challenges.issue(key.hex, '127.0.0.1');
    const header = authorizationHeader(signEvent(key, { kind: 22242, tags: [['challenge', challenge]] }));
    expect(await auth.authenticator.precheck(request(header))).toBe(key.hex);
    expect((await auth.authenticator.authenticate(request(header))).method).toBe('challenge');
    await expect(auth.authenticator.precheck(request(header))).rejects.toMatchObject({
      code: 'AUTH_CHALLENGE_INVALID',
    });
  });

  it('cannot decide without a header or an npub, and refuses an npub the relay never authenticated', async () => {
    expect(await auth.authenticator.precheck(request())).toBeNull();
    await expect(auth.authenticator.precheck(request(), { npub: key.npub })).rejects.toMatchObject({
      code: 'AUTH_NOT_FOUND',
    });
  });
});
