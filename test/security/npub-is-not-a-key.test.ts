import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../helpers/multipart.js';
import { publish, waitFor } from '../helpers/relay.js';
import {
  auth22242,
  loginOnRelay,
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../helpers/relay-station.js';
import type { TestKey } from '../helpers/nostr.js';

const COOKIE = '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t2000000000\tSID\tsecret\n';
const ALICE_ADDRESS = '203.0.113.5';
const STRANGER = '198.51.100.66';

/**
 * Finding: with relay-observed auth on (the default), anyone who knew an npub acted as its owner for 24 hours
 * after that owner published any kind-22242 event: uploads, cookie replacement, deletion, reading the e-mail.
 */
describe('knowing an npub is not enough', () => {
  let e: RelayStation;
  let alice: TestKey;
  beforeAll(async () => {
    e = await startRelayStation();
    alice = await register(e.t, 'alice@example.org');
    // Alice logs in the old way (no station challenge) and the relay-observed way (docs/auth-model.md), from
    // her own address.
    await publish(e.relay.url, auth22242(alice));
    await waitFor(() => e.t.deps.auth.observed.lastRefusal(alice.hex) !== null);
    await loginOnRelay(e, alice, ALICE_ADDRESS);
  });
  afterAll(() => stopRelayStation(e));

  const upload = (path: string, name: string, value: string, from: string) =>
    postForm(
      e.t,
      path,
      [
        { name: 'npub', value: alice.npub },
        { name: 'file', filename: name, value },
      ],
      null,
      undefined,
      from,
    );

  it('refuses a stranger every write and the e-mail, with no key', async () => {
    const attempts = [
      await upload('/api/upload', 'photo.jpg', 'not really a jpeg', STRANGER),
      await upload('/api/fileupload', 'cookies.txt', COOKIE, STRANGER),
      await e.t.app.inject({
        method: 'POST',
        url: '/api/delete',
        payload: { file_path: 'Images/photo.jpg', npub: alice.npub },
        remoteAddress: STRANGER,
      }),
      await e.t.app.inject({ url: `/api/me?npub=${alice.npub}`, remoteAddress: STRANGER }),
    ];
    for (const answer of attempts) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ detail: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
    }
  });

  it('lets Alice upload from the address that asked the challenge, but not delete or read her e-mail on it', async () => {
    expect((await upload('/api/upload', 'photo.jpg', 'not really a jpeg', ALICE_ADDRESS)).statusCode).toBe(
      200,
    );
    const deletion = await e.t.app.inject({
      method: 'POST',
      url: '/api/delete',
      payload: { file_path: 'Images/photo.jpg', npub: alice.npub },
      remoteAddress: ALICE_ADDRESS,
    });
    expect(deletion.json().code).toBe('PROOF_REQUIRED');
    const me = await e.t.app.inject({ url: `/api/me?npub=${alice.npub}`, remoteAddress: ALICE_ADDRESS });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBeUndefined();
  });
});
