import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, type TestKey } from '../../helpers/nostr.js';
import { blossomToken, expectError, nostrAuth, sha256Hex, uploadAs } from './requests.js';
import { localUser, startBlossomStation, type BlossomStation } from './station.js';

interface Descriptor {
  sha256: string;
  size: number;
  uploaded: number;
  url: string;
}

/** Waits for the next wall-clock second, so that uploads get distinct `uploaded` values. */
async function nextSecond(): Promise<void> {
  const now = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 1000 - (now % 1000) + 20));
}

describe('GET /list/:pubkey with BLOSSOM_LIST_AUTH=true', () => {
  let s: BlossomStation;
  let alice: TestKey;
  let bob: TestKey;
  const uploads: Descriptor[] = [];

  beforeAll(async () => {
    s = await startBlossomStation({
      RATE_LIMIT_MAX: '100000',
      PUBLISH_FILE_METADATA: 'false',
      BLOSSOM_LIST_AUTH: 'true',
    });
    alice = await localUser(s, 'alice@example.org');
    bob = await localUser(s, 'bob@example.org');
    // Three uploads, each in its own second.
    for (let i = 0; i < 3; i++) {
      if (i > 0) await nextSecond();
      const response = await uploadAs(s, alice, randomBytes(1000 + i));
      expect(response.status).toBe(201);
      uploads.push((await response.json()) as Descriptor);
    }
    expect((await uploadAs(s, bob, randomBytes(500))).status).toBe(201);
  });
  afterAll(() => s.stop());

  const list = (pubkey: string, options: { token?: object; query?: string } = {}) =>
    fetch(`${s.server}/list/${pubkey}${options.query ? `?${options.query}` : ''}`, {
      headers: options.token ? { authorization: nostrAuth(options.token) } : {},
    });

  const listToken = (key: TestKey) => blossomToken(key, { verb: 'list' });

  it('refuses a list without a token (401 BLOSSOM_AUTH_REQUIRED)', async () => {
    const response = await list(alice.hex);
    await expectError(response, 401, 'BLOSSOM_AUTH_REQUIRED');
    expect(response.headers.get('www-authenticate')).toBe('Nostr');
  });

  it('refuses another key’s t=list token (403 NOT_YOUR_LIST)', async () => {
    await expectError(await list(alice.hex, { token: listToken(bob) }), 403, 'NOT_YOUR_LIST');
  });

  it('refuses the owner’s token with another verb (401 BLOSSOM_AUTH_WRONG_VERB)', async () => {
    const token = blossomToken(alice, { verb: 'upload', x: [uploads[0]!.sha256] });
    await expectError(await list(alice.hex, { token }), 401, 'BLOSSOM_AUTH_WRONG_VERB');
  });

  it('refuses the owner’s expired t=list token (401 BLOSSOM_AUTH_EXPIRED)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = blossomToken(alice, { verb: 'list', createdAt: now - 600, expiration: now - 1 });
    await expectError(await list(alice.hex, { token }), 401, 'BLOSSOM_AUTH_EXPIRED');
  });

  it('lists the owner’s blobs, newest first, for the owner’s t=list token', async () => {
    const response = await list(alice.hex, { token: listToken(alice) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Descriptor[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((d) => d.sha256)).toEqual(uploads.map((d) => d.sha256).reverse());
    expect(body[0]).toMatchObject({ size: uploads[2]!.size, url: uploads[2]!.url });
  });

  it('lists only the owner’s blobs (Bob’s list has his one blob)', async () => {
    const response = await list(bob.hex, { token: listToken(bob) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Descriptor[];
    expect(body).toHaveLength(1);
    expect(body.map((d) => d.sha256)).not.toContain(uploads[0]!.sha256);
  });

  it('accepts an uppercase pubkey in the path as the same key', async () => {
    const response = await list(alice.hex.toUpperCase(), { token: listToken(alice) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Descriptor[]).length).toBe(3);
  });

  it('answers an empty list for a key that has uploaded nothing', async () => {
    const stranger = newKey();
    const response = await list(stranger.hex, { token: listToken(stranger) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it.each([
    ['not hex', 'z'.repeat(64)],
    ['too short', 'ab'.repeat(31)],
    ['an npub', 'npub1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'],
    ['too long', 'a'.repeat(65)],
  ])('refuses an invalid pubkey: %s (400)', async (_what, pubkey) => {
    const response = await list(pubkey, { token: listToken(alice) });
    await expectError(response, 400);
  });

  it('filters by uploaded with since and until', async () => {
    const [first, second, third] = uploads as [Descriptor, Descriptor, Descriptor];
    expect(new Set(uploads.map((d) => d.uploaded)).size).toBe(3);
    const shas = async (query: string) => {
      const response = await list(alice.hex, { token: listToken(alice), query });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as Descriptor[]).map((d) => d.sha256);
    };
    expect(await shas(`since=${second.uploaded}`)).toEqual([third.sha256, second.sha256]);
    expect(await shas(`until=${second.uploaded}`)).toEqual([second.sha256, first.sha256]);
    expect(await shas(`since=${second.uploaded}&until=${second.uploaded}`)).toEqual([second.sha256]);
    expect(await shas(`since=${third.uploaded + 1}`)).toEqual([]);
    expect(await shas(`until=${first.uploaded - 1}`)).toEqual([]);
  });

  it('refuses a since that is not a number (400)', async () => {
    await expectError(await list(alice.hex, { token: listToken(alice), query: 'since=yesterday' }), 400);
  });

  it('serves each listed blob by the URL the list gives', async () => {
    const response = await list(alice.hex, { token: listToken(alice) });
    for (const descriptor of (await response.json()) as Descriptor[]) {
      const blob = await fetch(descriptor.url);
      expect(blob.status).toBe(200);
      expect(sha256Hex(Buffer.from(await blob.arrayBuffer()))).toBe(descriptor.sha256);
    }
  });
});

describe('GET /list/:pubkey without BLOSSOM_LIST_AUTH (the default: open, as BUD-12)', () => {
  let s: BlossomStation;
  let alice: TestKey;

  beforeAll(async () => {
    s = await startBlossomStation({ RATE_LIMIT_MAX: '100000', PUBLISH_FILE_METADATA: 'false' });
    alice = await localUser(s, 'alice@example.org');
  });
  afterAll(() => s.stop());

  it('lists without a token', async () => {
    const bytes = randomBytes(100);
    expect((await uploadAs(s, alice, bytes)).status).toBe(201);
    const response = await fetch(`${s.server}/list/${alice.hex}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Descriptor[]).map((d) => d.sha256)).toEqual([sha256Hex(bytes)]);
  });
});
