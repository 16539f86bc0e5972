import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from 'rxjs';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { startStreams } from '../../streams/index.js';
import type { RelayClient } from '../../streams/relay-client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  authorizationHeader,
  keyFromSecret,
  newKey,
  nip98Header,
  signEvent,
  type TestKey,
} from '../helpers/nostr.js';
import { connectedClient, publish, startTestRelay, waitFor } from '../helpers/relay.js';

const MAX_AGE = 3600;

interface Env {
  relay: EmbeddedRelay;
  client: RelayClient;
  t: TestApp;
  streams: Subscription;
}

async function setUp(env: Record<string, string> = {}): Promise<Env> {
  const relay = await startTestRelay();
  const client = await connectedClient(relay.url, Math.floor(Date.now() / 1000) - 60);
  const t = await buildTestApp({
    env: { AUTH_MAX_AGE: String(MAX_AGE), ...env },
    overrides: { relay: client },
  });
  const streams = startStreams({ client, auth: t.deps.auth });
  return { relay, client, t, streams };
}

async function tearDown(e: Env): Promise<void> {
  e.streams.unsubscribe();
  await e.t.close();
  await e.client.stop();
  await e.relay.close();
}

async function register(t: TestApp, email: string): Promise<TestKey> {
  const created = await t.deps.users.create({ email });
  return keyFromSecret(created.keys.nostr.secretKey);
}

const now = () => Math.floor(Date.now() / 1000);
const auth22242 = (key: TestKey, extra: { created_at?: number; tags?: string[][] } = {}) =>
  signEvent(key, {
    kind: 22242,
    tags: [['relay', 'ws://127.0.0.1'], ...(extra.tags ?? [])],
    created_at: extra.created_at,
  });

describe('relay-observed NIP-42 authentication on a real relay', () => {
  let e: Env;
  beforeAll(async () => {
    e = await setUp();
  });
  afterAll(() => tearDown(e));

  const me = (npub: string, headers: Record<string, string> = {}) =>
    e.t.app.inject({ method: 'GET', url: `/api/me?npub=${npub}`, headers });

  it('accepts a key after it published a signed kind 22242 event', async () => {
    const alice = await register(e.t, 'alice@example.org');
    expect((await me(alice.npub)).statusCode).toBe(401);
    await publish(e.relay.url, auth22242(alice));
    await waitFor(() => e.t.deps.auth.cache.lookup(alice.hex, 0) !== null);
    const res = await me(alice.npub);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'alice@example.org', auth_method: 'relay', proof: false });
  });

  it('refuses an event older than AUTH_MAX_AGE', async () => {
    const bob = await register(e.t, 'bob@example.org');
    await publish(e.relay.url, auth22242(bob, { created_at: now() - MAX_AGE - 30 }));
    const marker = newKey(); // a later event proves the old one went through the stream first
    await publish(e.relay.url, auth22242(marker));
    await waitFor(() => e.t.deps.auth.cache.lookup(marker.hex, 0) !== null);
    const res = await me(bob.npub);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_NOT_FOUND');
  });

  it("refuses another key's event, and a wrong kind", async () => {
    const carol = await register(e.t, 'carol@example.org');
    const mallory = newKey();
    await publish(e.relay.url, auth22242(mallory));
    await publish(e.relay.url, signEvent(carol, { kind: 1, content: 'hello' }));
    await waitFor(() => e.t.deps.auth.cache.lookup(mallory.hex, 0) !== null);
    expect((await me(carol.npub)).statusCode).toBe(401);
    expect((await me(mallory.npub)).json().code).toBe('NOT_REGISTERED');
  });

  it('refuses a bad signature itself, whatever the relay did', async () => {
    const dave = await register(e.t, 'dave@example.org');
    const forged = { ...auth22242(newKey()), pubkey: dave.hex };
    expect(await e.t.deps.auth.observed.ingest(JSON.parse(JSON.stringify(forged)))).toMatchObject({
      accepted: false,
      code: 'AUTH_BAD_SIGNATURE',
    });
    expect((await me(dave.npub)).statusCode).toBe(401);
  });

  it('accepts a relay-observed challenge only if it was issued to that key', async () => {
    const erin = await register(e.t, 'erin@example.org');
    await publish(e.relay.url, auth22242(erin, { tags: [['challenge', 'made-up-by-the-client']] }));
    const issued = (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${erin.npub}` })).json();
    expect(issued).toMatchObject({ expires_in: 120, pubkey_hex: erin.hex });
    await publish(e.relay.url, auth22242(erin, { tags: [['challenge', issued.challenge]] }));
    await waitFor(() => e.t.deps.auth.cache.lookup(erin.hex, 0) !== null);
    expect((await me(erin.npub)).statusCode).toBe(200);
  });

  it('keeps working after the relay restarts', async () => {
    const port = e.relay.port;
    await e.relay.close();
    await waitFor(() => !e.client.connected);
    e.relay = await startTestRelay({ port });
    await waitFor(() => e.client.connected, 10_000);
    const frank = await register(e.t, 'frank@example.org');
    await publish(e.relay.url, auth22242(frank));
    await waitFor(() => e.t.deps.auth.cache.lookup(frank.hex, 0) !== null);
    expect((await me(frank.npub)).statusCode).toBe(200);
    expect(e.client.stats.reconnects).toBeGreaterThan(0);
  });
});

describe('per-request proof', () => {
  let e: Env;
  let gina: TestKey;
  beforeAll(async () => {
    e = await setUp({ AUTH_REQUIRE_PROOF: 'true' });
    gina = await register(e.t, 'gina@example.org');
  });
  afterAll(() => tearDown(e));

  const me = (headers: Record<string, string>, query = '') =>
    e.t.app.inject({ method: 'GET', url: `/api/me${query}`, headers });

  it('refuses relay-observed authentication when AUTH_REQUIRE_PROOF=true', async () => {
    await publish(e.relay.url, auth22242(gina));
    await waitFor(() => e.t.deps.auth.cache.lookup(gina.hex, 0) !== null);
    const res = await me({}, `?npub=${gina.npub}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('PROOF_REQUIRED');
  });

  it('accepts a NIP-98 event once, for this URL and method only', async () => {
    const header = nip98Header(gina, 'http://localhost/api/me', 'GET');
    const ok = await me({ authorization: header });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ auth_method: 'nip98', proof: true });
    const replayed = await me({ authorization: header });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().code).toBe('AUTH_REPLAYED');
    const wrongUrl = await me({ authorization: nip98Header(gina, 'http://localhost/api/delete', 'GET') });
    expect(wrongUrl.json().code).toBe('AUTH_URL_MISMATCH');
    const wrongMethod = await me({ authorization: nip98Header(gina, 'http://localhost/api/me', 'POST') });
    expect(wrongMethod.json().code).toBe('AUTH_METHOD_MISMATCH');
    const stale = await me({
      authorization: nip98Header(gina, 'http://localhost/api/me', 'GET', { createdAt: now() - 120 }),
    });
    expect(stale.json().code).toBe('AUTH_EXPIRED');
  });

  it('accepts a signed 22242 answering an issued challenge, once', async () => {
    const { challenge } = (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${gina.hex}` })).json();
    const header = authorizationHeader(auth22242(gina, { tags: [['challenge', challenge]] }));
    const ok = await me({ authorization: header });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().auth_method).toBe('challenge');
    const again = await me({ authorization: header });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('AUTH_CHALLENGE_INVALID');
  });

  it('refuses an unknown challenge, and a challenge issued to another key', async () => {
    const unknown = authorizationHeader(auth22242(gina, { tags: [['challenge', 'ab'.repeat(32)]] }));
    expect((await me({ authorization: unknown })).json().code).toBe('AUTH_CHALLENGE_INVALID');
    const other = newKey();
    const { challenge } = (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${other.npub}` })).json();
    const stolen = authorizationHeader(auth22242(gina, { tags: [['challenge', challenge]] }));
    expect((await me({ authorization: stolen })).statusCode).toBe(401);
  });

  it('answers 401 for a malformed header and for no credential, 400 for a bad npub', async () => {
    expect((await me({ authorization: 'Nostr !!!' })).json().code).toBe('AUTH_MALFORMED');
    expect((await me({})).statusCode).toBe(401);
    expect((await me({}, '?npub=npub1nothing')).statusCode).toBe(400);
  });
});
