import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAuth } from '../../src/auth/plugin.js';
import { createAuthServices } from '../../src/auth/services.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { UserStore } from '../../src/identity/user-store.js';
import { keyFromSecret, nip98Header, type TestKey } from '../helpers/nostr.js';
import { ManualClock } from '../helpers/clock.js';
import { tempDir } from '../helpers/temp.js';

/** The auth plugin on a minimal app, to exercise NIP-98 payload checks on JSON and streamed multipart bodies. */
describe('auth plugin: NIP-98 bound to the request', () => {
  const clock = new ManualClock(Date.now());
  let app: FastifyInstance;
  let users: UserStore;
  let owner: TestKey;
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    dir = await tempDir();
    users = await UserStore.open(`${dir.path}/game`, { uplanetName: 'test', watch: false });
    const created = await users.create({ email: 'owner@example.org' });
    owner = keyFromSecret(created.keys.nostr.secretKey);
    const config = {
      dataRoot: `${dir.path}/game`,
      authMaxAgeSeconds: 86_400,
      authRequireProof: false,
      auth: { publicUrls: [], legacyRelayLogin: false, corsOrigins: [] },
    };
    const auth = await createAuthServices({ config, clock });
    app = Fastify();
    registerErrorHandling(app);
    await app.register(multipart);
    registerAuth(app, auth.authenticator, users, clock, auth.origins);
    app.post('/echo', async (request) => {
      const { auth: who, user } = await request.requireOwner({
        npub: (request.body as { npub?: string }).npub,
      });
      return { pubkey: who.pubkey, email: user.email };
    });
    app.post('/upload', async (request) => {
      let bytes = 0;
      for await (const part of request.parts())
        if (part.type === 'file') for await (const c of part.file) bytes += c.length;
      // Streaming the body took "five minutes": longer than NIP-98's window, which is judged at arrival.
      clock.advance(5 * 60_000);
      const { auth: who } = await request.requireOwner();
      return { pubkey: who.pubkey, bytes };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    users.close();
    await dir.cleanup();
  });

  const json = (body: object, authorization: string) =>
    app.inject({
      method: 'POST',
      url: '/echo',
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization },
    });

  it('accepts a payload tag equal to the SHA-256 of the JSON body', async () => {
    const body = JSON.stringify({ npub: owner.npub });
    const res = await json(JSON.parse(body), nip98Header(owner, 'http://localhost/echo', 'POST', { body }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pubkey: owner.hex, email: 'owner@example.org' });
  });

  it('refuses a payload tag of another body', async () => {
    const header = nip98Header(owner, 'http://localhost/echo', 'POST', { body: '{"npub":"someone else"}' });
    const res = await json({ npub: owner.npub }, header);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_PAYLOAD_MISMATCH');
  });

  it('refuses an npub field naming another key (403)', async () => {
    const other = 'f'.repeat(64);
    const res = await json({ npub: other }, nip98Header(owner, 'http://localhost/echo', 'POST'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NPUB_MISMATCH');
  });

  it('checks the payload of a streamed multipart body', async () => {
    const boundary = '----station';
    const content = 'x'.repeat(300_000);
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      content,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const send = (authorization: string) => {
      clock.set(Date.now());
      return app.inject({
        method: 'POST',
        url: '/upload',
        payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization },
      });
    };
    const ok = await send(nip98Header(owner, 'http://localhost/upload', 'POST', { body }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ pubkey: owner.hex, bytes: content.length });
    const bad = await send(nip98Header(owner, 'http://localhost/upload', 'POST', { body: body + 'x' }));
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('AUTH_PAYLOAD_MISMATCH');
  });
});
