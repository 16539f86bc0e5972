import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, type TestKey } from '../../helpers/nostr.js';
import {
  blossomToken,
  bytesOf,
  EMPTY_SHA256,
  expectError,
  forgedFor,
  nostrAuth,
  nowSeconds,
  putUpload,
  sha256Hex,
  stagedLeftovers,
  uploadAs,
  type TokenOptions,
} from './requests.js';
import { driveFiles, localUser, startBlossomStation, type BlossomStation } from './station.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';
const ENV = { RATE_LIMIT_MAX: '100000', PUBLISH_FILE_METADATA: 'false' };

describe('PUT /upload refusals', () => {
  let s: BlossomStation;
  let alice: TestKey;
  let bob: TestKey;

  beforeAll(async () => {
    s = await startBlossomStation(ENV);
    alice = await localUser(s, ALICE);
    bob = await localUser(s, BOB);
  });
  afterAll(() => s.stop());

  /** The drive as a comparable value: what a refusal must leave untouched. */
  const snapshot = async (email: string) =>
    (await driveFiles(s, email)).map((f) => `${f.path} ${f.sha256} ${f.size}`).sort();

  /**
   * Sends fresh bytes with `headers`, expects a 401 with `code`, and checks that nothing of it reached
   * Alice's drive, the blob store or the staging area.
   */
  async function refused401(code: string, headers: (bytes: Buffer) => Record<string, string>) {
    const bytes = randomBytes(3000);
    const before = await snapshot(ALICE);
    const response = await putUpload(s, bytes, headers(bytes));
    const answer = await expectError(response, 401, code);
    expect(response.headers.get('www-authenticate')).toBe('Nostr');
    expect(await snapshot(ALICE)).toEqual(before);
    expect((await fetch(`${s.server}/${sha256Hex(bytes)}`)).status).toBe(404);
    expect(await stagedLeftovers(s)).toEqual([]);
    return answer;
  }

  const withToken = (options: (bytes: Buffer) => TokenOptions, key: () => TestKey = () => alice) => {
    return (bytes: Buffer) => ({ authorization: nostrAuth(blossomToken(key(), options(bytes))) });
  };

  it('accepts a valid token (the control every refusal below differs from by one thing)', async () => {
    const bytes = randomBytes(3000);
    const response = await uploadAs(s, alice, bytes, { 'content-type': 'application/octet-stream' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ sha256: sha256Hex(bytes), size: 3000 });
    expect((await driveFiles(s, ALICE)).some((f) => f.sha256 === sha256Hex(bytes))).toBe(true);
  });

  it('refuses an upload without Authorization (BLOSSOM_AUTH_REQUIRED)', async () => {
    await refused401('BLOSSOM_AUTH_REQUIRED', () => ({}));
  });

  it('treats another scheme as no Nostr token (BLOSSOM_AUTH_REQUIRED)', async () => {
    await refused401('BLOSSOM_AUTH_REQUIRED', () => ({ authorization: 'Bearer abcdef' }));
  });

  it.each([
    ['not base64 JSON', 'Nostr !!!not-base64!!!'],
    ['JSON that is not an event', `Nostr ${Buffer.from('{"hello":"world"}').toString('base64url')}`],
    ['a truncated event', `Nostr ${Buffer.from('{"id":"00","pubkey":').toString('base64url')}`],
  ])('refuses a malformed header: %s (BLOSSOM_AUTH_MALFORMED)', async (_what, header) => {
    await refused401('BLOSSOM_AUTH_MALFORMED', () => ({ authorization: header }));
  });

  it('refuses a token whose x tag names other bytes, without X-SHA-256 (BLOSSOM_AUTH_WRONG_BLOB)', async () => {
    await refused401(
      'BLOSSOM_AUTH_WRONG_BLOB',
      withToken(() => ({ x: [sha256Hex(randomBytes(3000))] })),
    );
  });

  it('refuses a token whose x tag names other bytes, with a true X-SHA-256 (BLOSSOM_AUTH_WRONG_BLOB)', async () => {
    await refused401('BLOSSOM_AUTH_WRONG_BLOB', (bytes) => ({
      authorization: nostrAuth(blossomToken(alice, { x: [sha256Hex(randomBytes(3000))] })),
      'x-sha-256': sha256Hex(bytes),
    }));
  });

  it('refuses an upload token without any x tag (BLOSSOM_AUTH_WRONG_BLOB)', async () => {
    await refused401(
      'BLOSSOM_AUTH_WRONG_BLOB',
      withToken(() => ({ x: [] })),
    );
  });

  it('refuses an expired token (BLOSSOM_AUTH_EXPIRED)', async () => {
    await refused401(
      'BLOSSOM_AUTH_EXPIRED',
      withToken((bytes) => ({
        x: [sha256Hex(bytes)],
        createdAt: nowSeconds() - 600,
        expiration: nowSeconds() - 10,
      })),
    );
  });

  it('refuses a token created an hour in the future (BLOSSOM_AUTH_FUTURE)', async () => {
    await refused401(
      'BLOSSOM_AUTH_FUTURE',
      withToken((bytes) => ({ x: [sha256Hex(bytes)], createdAt: nowSeconds() + 3600 })),
    );
  });

  it('refuses a token without an expiration tag (BLOSSOM_AUTH_NO_EXPIRATION)', async () => {
    await refused401(
      'BLOSSOM_AUTH_NO_EXPIRATION',
      withToken((bytes) => ({ x: [sha256Hex(bytes)], expiration: null })),
    );
  });

  it('refuses a token of another kind (BLOSSOM_AUTH_WRONG_KIND)', async () => {
    await refused401(
      'BLOSSOM_AUTH_WRONG_KIND',
      withToken((bytes) => ({ x: [sha256Hex(bytes)], kind: 27235 })),
    );
  });

  it.each(['delete', 'get', 'list', null])(
    'refuses a token with t=%s (BLOSSOM_AUTH_WRONG_VERB)',
    async (verb) => {
      await refused401(
        'BLOSSOM_AUTH_WRONG_VERB',
        withToken((bytes) => ({ x: [sha256Hex(bytes)], verb })),
      );
    },
  );

  it('refuses a token whose server tag names another domain (BLOSSOM_AUTH_WRONG_SERVER)', async () => {
    await refused401(
      'BLOSSOM_AUTH_WRONG_SERVER',
      withToken((bytes) => ({ x: [sha256Hex(bytes)], server: ['cdn.example.com'] })),
    );
  });

  it('accepts a token whose server tags include 127.0.0.1, the host it was sent to', async () => {
    const bytes = randomBytes(3000);
    const token = blossomToken(alice, { x: [sha256Hex(bytes)], server: ['cdn.example.com', '127.0.0.1'] });
    const response = await putUpload(s, bytes, { authorization: nostrAuth(token) });
    expect(response.status, await response.clone().text()).toBe(201);
    expect((await driveFiles(s, ALICE)).some((f) => f.sha256 === sha256Hex(bytes))).toBe(true);
  });

  it.each([
    ['with the original id', false],
    ['with the id recomputed', true],
  ])(
    'refuses Alice’s token claimed as Bob’s, %s (BLOSSOM_AUTH_BAD_SIGNATURE), Bob’s drive unchanged',
    async (_what, recomputeId) => {
      const bobBefore = await snapshot(BOB);
      await refused401('BLOSSOM_AUTH_BAD_SIGNATURE', (bytes) => ({
        authorization: nostrAuth(forgedFor(blossomToken(alice, { x: [sha256Hex(bytes)] }), bob, recomputeId)),
      }));
      expect(await snapshot(BOB)).toEqual(bobBefore);
    },
  );

  it('refuses a token used a second time for the same bytes (AUTH_REPLAYED)', async () => {
    const bytes = randomBytes(3000);
    const authorization = nostrAuth(blossomToken(alice, { x: [sha256Hex(bytes)] }));
    const first = await putUpload(s, bytes, { authorization });
    expect(first.status, await first.clone().text()).toBe(201);
    const afterFirst = await snapshot(ALICE);
    expect(afterFirst.some((line) => line.includes(sha256Hex(bytes)))).toBe(true);
    const again = await putUpload(s, bytes, { authorization });
    await expectError(again, 401, 'AUTH_REPLAYED');
    expect(await snapshot(ALICE)).toEqual(afterFirst);
    expect(await stagedLeftovers(s)).toEqual([]);
  });

  it('refuses a valid token of a key with no drive on the station (403 NOT_LOCAL_USER)', async () => {
    const stranger = newKey();
    const bytes = randomBytes(3000);
    const before = await snapshot(ALICE);
    await expectError(await uploadAs(s, stranger, bytes), 403, 'NOT_LOCAL_USER');
    expect(await snapshot(ALICE)).toEqual(before);
    expect((await fetch(`${s.server}/${sha256Hex(bytes)}`)).status).toBe(404);
    expect(await stagedLeftovers(s)).toEqual([]);
  });

  it('refuses a body whose hash is not the X-SHA-256 the token names (409 BLOB_HASH_MISMATCH)', async () => {
    const announced = randomBytes(3000);
    const sent = randomBytes(3000);
    const before = await snapshot(ALICE);
    const response = await putUpload(s, sent, {
      authorization: nostrAuth(blossomToken(alice, { x: [sha256Hex(announced)] })),
      'x-sha-256': sha256Hex(announced),
    });
    await expectError(response, 409, 'BLOB_HASH_MISMATCH');
    expect(await snapshot(ALICE)).toEqual(before);
    expect((await fetch(`${s.server}/${sha256Hex(sent)}`)).status).toBe(404);
    expect(await stagedLeftovers(s)).toEqual([]);
  });

  it('refuses an X-SHA-256 that is not a hash (400 INVALID_SHA256)', async () => {
    const bytes = randomBytes(100);
    await expectError(await uploadAs(s, alice, bytes, { 'x-sha-256': 'abc' }), 400, 'INVALID_SHA256');
  });

  it('refuses a Netscape cookie file (400 COOKIE_FILE): never in the drive, never served', async () => {
    const cookies = Buffer.from(
      '# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n\n' +
        '.example.com\tTRUE\t/\tTRUE\t1999999999\tsession\tsecret-value\n',
    );
    const before = await snapshot(ALICE);
    const response = await uploadAs(s, alice, cookies, { 'content-type': 'text/plain' });
    await expectError(response, 400, 'COOKIE_FILE');
    expect(await snapshot(ALICE)).toEqual(before);
    expect((await fetch(`${s.server}/${sha256Hex(cookies)}`)).status).toBe(404);
    expect(await stagedLeftovers(s)).toEqual([]);
  });

  it('stores a 0-byte blob and serves it back', async () => {
    const empty = Buffer.alloc(0);
    const response = await uploadAs(s, alice, empty);
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toMatchObject({ sha256: EMPTY_SHA256, size: 0 });
    const back = await fetch(`${s.server}/${EMPTY_SHA256}`);
    expect(back.status).toBe(200);
    expect((await bytesOf(back)).length).toBe(0);
    expect((await driveFiles(s, ALICE)).find((f) => f.sha256 === EMPTY_SHA256)?.size).toBe(0);
  });

  it('stores a 0-byte blob sent with a Content-Type too', async () => {
    const response = await uploadAs(s, bob, Buffer.alloc(0), { 'content-type': 'application/octet-stream' });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toMatchObject({ sha256: EMPTY_SHA256, size: 0 });
  });

  it('stores an application/json body raw, byte for byte, without parsing it', async () => {
    // Spacing and key order a parser would not keep.
    const json = Buffer.from('{ "b": 1,   "a": [1, 2, 3],\n "z": "\\u00e9" }\n');
    const response = await uploadAs(s, alice, json, { 'content-type': 'application/json' });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toMatchObject({
      sha256: sha256Hex(json),
      size: json.length,
      type: 'application/json',
    });
    const back = await fetch(`${s.server}/${sha256Hex(json)}`);
    expect(back.status).toBe(200);
    expect((await bytesOf(back)).equals(json)).toBe(true);
  });

  it('stores an application/json body larger than the JSON body limit raw too', async () => {
    const json = Buffer.from(JSON.stringify({ data: randomBytes(12_000).toString('hex') }));
    const response = await uploadAs(s, alice, json, { 'content-type': 'application/json' });
    expect(response.status, await response.clone().text()).toBe(201);
    const back = await fetch(`${s.server}/${sha256Hex(json)}`);
    expect((await bytesOf(back)).equals(json)).toBe(true);
  });
});

describe('PUT /upload beyond the drive quota (DRIVE_QUOTA_MB=1)', () => {
  const MB = 1024 * 1024;
  let s: BlossomStation;
  let carol: TestKey;

  beforeAll(async () => {
    s = await startBlossomStation({ ...ENV, DRIVE_QUOTA_MB: '1' });
    carol = await localUser(s, 'carol@example.org');
  });
  afterAll(() => s.stop());

  const files = () => driveFiles(s, 'carol@example.org');

  it('refuses a body larger than the quota (413 QUOTA_EXCEEDED), with Content-Length', async () => {
    const bytes = randomBytes(MB + MB / 2);
    await expectError(await uploadAs(s, carol, bytes), 413, 'QUOTA_EXCEEDED');
    expect(await files()).toEqual([]);
    expect((await fetch(`${s.server}/${sha256Hex(bytes)}`)).status).toBe(404);
    expect(await stagedLeftovers(s)).toEqual([]);
  });

  it('refuses a streamed body larger than the quota (413), without Content-Length', async () => {
    const bytes = randomBytes(MB + MB / 2);
    const chunks = Array.from({ length: 6 }, (_, i) =>
      bytes.subarray((i * bytes.length) / 6, ((i + 1) * bytes.length) / 6),
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const token = blossomToken(carol, { x: [sha256Hex(bytes)] });
    const response = await fetch(`${s.server}/upload`, {
      method: 'PUT',
      body,
      duplex: 'half',
      headers: { authorization: nostrAuth(token), 'content-type': 'application/octet-stream' },
    } as RequestInit);
    await expectError(response, 413, 'QUOTA_EXCEEDED');
    expect(await files()).toEqual([]);
    expect(await stagedLeftovers(s)).toEqual([]);
    // The rest of the refused body must not leave the client's next request waiting on a stuck connection.
    expect((await fetch(`${s.server}/${sha256Hex(bytes)}`)).status).toBe(404);
  });

  it('refuses a body larger than the room left once the drive is partly full', async () => {
    const first = randomBytes(700 * 1024);
    expect((await uploadAs(s, carol, first)).status).toBe(201);
    const second = randomBytes(400 * 1024);
    await expectError(await uploadAs(s, carol, second), 413, 'QUOTA_EXCEEDED');
    expect((await files()).map((f) => f.sha256)).toEqual([sha256Hex(first)]);
    // What still fits is accepted.
    const third = randomBytes(300 * 1024);
    expect((await uploadAs(s, carol, third)).status).toBe(201);
  });
});
