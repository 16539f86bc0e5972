import type { NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../helpers/multipart.js';
import { authorizationHeader, newKey, nip98Header, type TestKey } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import {
  auth22242,
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../helpers/relay-station.js';

const COOKIE = '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t2000000000\tSID\tsecret\n';

/**
 * Finding: a subscriber to kind 22242 copied B's challenge answer as it was published and sent it as
 * `Authorization: Nostr …`; GET /cookie/youtube.com returned B's whole cookie file.
 */
describe('a login answer seen on the relay is neither public nor a bearer credential', () => {
  let e: RelayStation;
  let bea: TestKey;
  beforeAll(async () => {
    e = await startRelayStation();
    bea = await register(e.t, 'bea@example.org');
    const upload = await postForm(
      e.t,
      '/api/fileupload',
      [{ name: 'file', filename: 'c.txt', value: COOKIE }],
      bea,
    );
    expect(upload.statusCode).toBe(200);
  });
  afterAll(() => stopRelayStation(e));

  const readCookie = (authorization: string, remoteAddress = '127.0.0.1') =>
    e.t.app.inject({ url: '/cookie/youtube.com', headers: { authorization }, remoteAddress });

  it('keeps the answer from other subscribers, and consumes it on sight', async () => {
    const spy = await Relay.connect(e.relay.url);
    const sniffed: NostrEvent[] = [];
    spy.subscribe([{ kinds: [22242] }, { kinds: [1, 22242] }], { onevent: (event) => sniffed.push(event) });
    const { challenge } = (await e.t.app.inject({ url: `/api/nip42/challenge?npub=${bea.npub}` })).json();
    const answer = auth22242(bea, { tags: [['challenge', challenge]] });
    await publish(e.relay.url, answer);
    await waitFor(() => e.t.deps.auth.cache.lookup(bea.hex, '127.0.0.1', 0) !== null);
    expect(sniffed).toEqual([]);
    spy.close();
    // Even a copy obtained elsewhere is used up: it reads nothing, from any address.
    for (const address of ['127.0.0.1', '198.51.100.7']) {
      const stolen = await readCookie(authorizationHeader(answer), address);
      expect(stolen.statusCode).toBe(401);
      expect(stolen.json().code).toBe('AUTH_CHALLENGE_INVALID');
    }
  });

  it('accepts a header answer only from the address that asked, and never burns it for another key', async () => {
    const { challenge } = (
      await e.t.app.inject({ url: `/api/nip42/challenge?npub=${bea.npub}`, remoteAddress: '203.0.113.9' })
    ).json();
    const answer = authorizationHeader(auth22242(bea, { tags: [['challenge', challenge]] }));
    expect((await readCookie(answer, '198.51.100.7')).json().code).toBe('AUTH_CHALLENGE_OTHER_ADDRESS');
    const mallory = authorizationHeader(auth22242(newKey(), { tags: [['challenge', challenge]] }));
    expect((await readCookie(mallory, '203.0.113.9')).json().code).toBe('AUTH_CHALLENGE_OTHER_KEY');
    const own = await readCookie(answer, '203.0.113.9');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('SID\tsecret');
  });

  it('still serves the owner through NIP-98', async () => {
    const header = nip98Header(bea, 'http://localhost/cookie/youtube.com', 'GET');
    expect((await readCookie(header)).statusCode).toBe(200);
  });
});
