import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, newKey, nip98Header, signEvent, type TestKey } from '../helpers/nostr.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import {
  auth22242,
  nowSeconds as now,
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation as Env,
} from '../helpers/relay-station.js';

const MAX_AGE = 3600;
const setUp = (env: Record<string, string> = {}) =>
  startRelayStation({ AUTH_MAX_AGE: String(MAX_AGE), ...env });
const tearDown = stopRelayStation;

describe('relay-observed NIP-42 authentication on a real relay', () => {
  let e: Env;
  beforeAll(async () => {
    e = await setUp();
  });
  afterAll(() => tearDown(e));

  const me = (npub: string, remoteAddress = '127.0.0.1') =>
    e.t.app.inject({ method: 'GET', url: `/api/me?npub=${npub}`, remoteAddress });
  const challengeFor = async (key: TestKey, remoteAddress = '127.0.0.1') =>
    (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}`, remoteAddress })).json()
      .challenge as string;
  const seen = (key: TestKey, address = '127.0.0.1') =>
    waitFor(() => e.t.deps.auth.cache.lookup(key.hex, address, 0) !== null);

  it('accepts a key that answered a station challenge on the relay, from the asking address only', async () => {
    const alice = await register(e.t, 'alice@example.org');
    expect((await me(alice.npub)).statusCode).toBe(401);
    await publish(e.relay.url, auth22242(alice, { tags: [['challenge', await challengeFor(alice)]] }));
    await seen(alice);
    const res = await me(alice.npub);
    expect(res.statusCode).toBe(200);
    // Knowing an npub tells nobody its e-mail: that needs a proof in the request.
    expect(res.json()).toEqual(expect.objectContaining({ auth_method: 'relay', proof: false }));
    expect(res.json().email).toBeUndefined();
    expect((await me(alice.npub, '198.51.100.23')).json().code).toBe('AUTH_NOT_FOUND');
  });

  it('consumes a challenge seen on the relay: the same answer never serves in a header', async () => {
    const bea = await register(e.t, 'bea@example.org');
    const answer = auth22242(bea, { tags: [['challenge', await challengeFor(bea)]] });
    await publish(e.relay.url, answer);
    await seen(bea);
    const replayed = await e.t.app.inject({
      url: '/api/me',
      headers: { authorization: authorizationHeader(answer) },
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().code).toBe('AUTH_CHALLENGE_INVALID');
  });

  it('refuses an event older than AUTH_MAX_AGE', async () => {
    const bob = await register(e.t, 'bob@example.org');
    const challenge = await challengeFor(bob);
    // The bot's subscription starts after this date, so the event is handed to the stream's ingest directly.
    const old = auth22242(bob, { created_at: now() - MAX_AGE - 30, tags: [['challenge', challenge]] });
    expect(await e.t.deps.auth.observed.ingest(old)).toMatchObject({ accepted: false, code: 'AUTH_EXPIRED' });
    const res = await me(bob.npub);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_EXPIRED');
  });

  it("refuses another key's answer without burning the challenge, and a wrong kind", async () => {
    const carol = await register(e.t, 'carol@example.org');
    const mallory = newKey();
    const challenge = await challengeFor(carol);
    await publish(e.relay.url, auth22242(mallory, { tags: [['challenge', challenge]] }));
    await publish(
      e.relay.url,
      signEvent(carol, { kind: 1, content: 'hello', tags: [['challenge', challenge]] }),
    );
    await waitFor(() => e.t.deps.auth.observed.lastRefusal(mallory.hex) !== null);
    expect(e.t.deps.auth.observed.lastRefusal(mallory.hex)?.code).toBe('AUTH_CHALLENGE_OTHER_KEY');
    expect((await me(carol.npub)).statusCode).toBe(401);
    // The challenge is still Carol's: her own answer logs her in.
    await publish(e.relay.url, auth22242(carol, { tags: [['challenge', challenge]] }));
    await seen(carol);
    expect((await me(carol.npub)).statusCode).toBe(200);
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

  it('says exactly why a 22242 without a station challenge does not log in', async () => {
    const erin = await register(e.t, 'erin@example.org');
    // UPlanet pages fall back to `auth-<timestamp>` when the challenge API was unreachable.
    await publish(e.relay.url, auth22242(erin, { tags: [['challenge', `auth-${now()}`]] }));
    await waitFor(() => e.t.deps.auth.observed.lastRefusal(erin.hex) !== null);
    const res = await me(erin.npub);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'AUTH_CHALLENGE_NOT_ISSUED',
      detail: expect.stringMatching(/challenge/),
    });
  });

  it('keeps working after the relay restarts', async () => {
    const port = e.relay.port;
    await e.relay.close();
    await waitFor(() => !e.client.connected);
    e.relay = await startTestRelay({ port });
    await waitFor(() => e.client.health()[0]?.subscription === 'live');
    const frank = await register(e.t, 'frank@example.org');
    await publish(e.relay.url, auth22242(frank, { tags: [['challenge', await challengeFor(frank)]] }));
    await seen(frank);
    expect((await me(frank.npub)).statusCode).toBe(200);
    expect(e.client.stats.reconnects).toBeGreaterThan(0);
  });
});

describe('the legacy relay login switch', () => {
  let e: Env;
  beforeAll(async () => {
    e = await setUp({ AUTH_LEGACY_RELAY_LOGIN: 'true' });
  });
  afterAll(() => tearDown(e));

  it('accepts a 22242 without a station challenge, from any address', async () => {
    const hugo = await register(e.t, 'hugo@example.org');
    await publish(e.relay.url, auth22242(hugo));
    await waitFor(() => e.t.deps.auth.cache.lookup(hugo.hex, 'anywhere', 0) !== null);
    const res = await e.t.app.inject({ url: `/api/me?npub=${hugo.npub}`, remoteAddress: '198.51.100.9' });
    expect(res.statusCode).toBe(200);
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
    const { challenge } = (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${gina.npub}` })).json();
    await publish(e.relay.url, auth22242(gina, { tags: [['challenge', challenge]] }));
    await waitFor(() => e.t.deps.auth.cache.lookup(gina.hex, '127.0.0.1', 0) !== null);
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
