import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFromSecret, newKey, nip98Header, type TestKey } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import {
  auth22242,
  loginOnRelay,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../helpers/relay-station.js';

/**
 * UPassport's pages (nostr.html, webcam.html, chat.html, youtube.html, cookie.html) log in on the relay with
 * NIP-42, then `fetch('/api/myGPS?npub=' + pubkey)` (hex, same origin, no header) and read `success`,
 * `coordinates.lat/lon`, `umap_key`, `source`, `home_station_url`, `home_node_hex`, `nostrns`; they treat 403
 * as "authenticate on the relay" and 404 as "not known here", and fall back to the browser's position.
 */
describe('myGPS clients', () => {
  let e: RelayStation;
  let alice: TestKey;
  beforeAll(async () => {
    e = await startRelayStation({ IPFSNODEID: '12D3KooWStation' });
    const created = await e.t.deps.users.create({
      email: 'alice@example.org',
      gps: { lat: 48.8566, lon: 2.3522 },
    });
    alice = keyFromSecret(created.keys.nostr.secretKey);
  });
  afterAll(() => stopRelayStation(e));

  const myGps = (
    key: TestKey | string,
    options: { address?: string; headers?: Record<string, string> } = {},
  ) =>
    e.t.app.inject({
      url: `/api/myGPS?npub=${typeof key === 'string' ? key : key.hex}`,
      remoteAddress: options.address ?? '127.0.0.1',
      headers: options.headers,
    });

  it('not logged in: 403 with a fresh challenge that, signed and published, opens the position', async () => {
    const refused = await myGps(alice, { address: '192.0.2.10' });
    expect(refused.statusCode).toBe(403);
    const body = refused.json();
    expect(body).toMatchObject({ code: 'AUTH_NOT_FOUND', detail: expect.any(String), expires_in: 120 });
    expect(body.nip42_challenge).toMatch(/^[0-9a-f]{64}$/);

    // The client signs the challenge it was given and publishes it; the bot logs it in for that address.
    await publish(e.relay.url, auth22242(alice, { tags: [['challenge', body.nip42_challenge]] }));
    await waitFor(() => e.t.deps.auth.cache.lookup(alice.hex, '192.0.2.10', 0) !== null);
    const res = await myGps(alice, { address: '192.0.2.10' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      coordinates: { lat: 48.86, lon: 2.35 },
      umap_key: '48.86,2.35',
      // A relay-observed login proves nothing in the request: the e-mail is for proofs only.
      email: null,
      source: 'local',
      home_station_url: null,
      nostrns: null,
      udrive_url: null,
      home_node_hex: null,
      home_ipfsnodeid: null,
      home_http_url: null,
      home_myipfs: null,
      ipfsnodeid: '12D3KooWStation',
      message: expect.any(String),
      timestamp: expect.any(String),
    });
  });

  it("the pages' usual flow (challenge, relay login), by npub too; a NIP-98 caller also gets the e-mail", async () => {
    await loginOnRelay(e, alice);
    expect((await myGps(alice.npub)).json().umap_key).toBe('48.86,2.35');
    const url = `http://localhost/api/myGPS?npub=${alice.npub}`;
    const signed = await myGps(alice.npub, {
      address: '198.51.100.7',
      headers: { authorization: nip98Header(alice, url, 'GET') },
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toMatchObject({
      email: 'alice@example.org',
      coordinates: { lat: 48.86, lon: 2.35 },
    });
  });

  it('a page of another site cannot ride on the relay login (403 ORIGIN_NOT_ALLOWED, no challenge)', async () => {
    await loginOnRelay(e, alice);
    const res = await myGps(alice, { headers: { origin: 'https://attacker.example' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'ORIGIN_NOT_ALLOWED' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // The station's own page (same origin, another loopback spelling) is fine.
    const own = await myGps(alice, { headers: { origin: 'http://127.0.0.1', host: 'localhost' } });
    expect(own.statusCode).toBe(200);
  });

  it('another key than the caller is 403; an unknown key or one without a position is 404', async () => {
    const bob = newKey();
    const res = await myGps(bob, {
      headers: { authorization: nip98Header(alice, `http://localhost/api/myGPS?npub=${bob.hex}`, 'GET') },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NPUB_MISMATCH');

    const stranger = await myGps(bob, {
      headers: { authorization: nip98Header(bob, `http://localhost/api/myGPS?npub=${bob.hex}`, 'GET') },
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ detail: expect.any(String), code: 'NOT_REGISTERED' });

    const created = await e.t.deps.users.create({ email: 'nogps@example.org' });
    const noGps = keyFromSecret(created.keys.nostr.secretKey);
    const none = await myGps(noGps, {
      headers: { authorization: nip98Header(noGps, `http://localhost/api/myGPS?npub=${noGps.hex}`, 'GET') },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: expect.any(String), code: 'GPS_NOT_SET' });
  });

  it('a malformed npub is 400', async () => {
    const res = await myGps('npub1nothing');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'INVALID_NPUB' });
  });
});
