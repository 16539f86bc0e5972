import { createHash, randomBytes } from 'node:crypto';
import { createUploadAuth, encodeAuthorizationHeader } from 'blossom-client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nip98Header, type TestKey } from '../../helpers/nostr.js';
import { waitFor } from '../../helpers/relay.js';
import { localUser, signerFor, startBlossomStation, type BlossomStation } from './station.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function blossomPut(
  s: BlossomStation,
  key: TestKey,
  bytes: Buffer,
  headers: Record<string, string> = {},
) {
  const token = await createUploadAuth(signerFor(key), sha256(bytes), {
    message: randomBytes(4).toString('hex'),
  });
  return fetch(`${s.server}/upload`, {
    method: 'PUT',
    body: bytes,
    headers: { authorization: encodeAuthorizationHeader(token), ...headers },
  });
}

async function nip96Post(s: BlossomStation, key: TestKey, bytes: Buffer, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new File([bytes], 'note.txt', { type: 'text/plain' }));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = `${s.server}/upload2ipfs`;
  return fetch(url, {
    method: 'POST',
    body,
    headers: {
      authorization: nip98Header(key, url, 'POST', { body }),
      'content-type': encoded.headers.get('content-type')!,
    },
  });
}

describe('NIP-94 announcements can be declined', () => {
  let s: BlossomStation;
  let dan: TestKey;
  beforeAll(async () => {
    s = await startBlossomStation();
    dan = await localUser(s, 'dan@example.org');
  });
  afterAll(() => s.stop());

  it('per upload: X-Publish-Metadata: false (Blossom), no_transform=true or publish=false (NIP-96)', async () => {
    const stats = s.station.t.app.fileMetadata.stats;
    const before = { ...stats };
    expect((await blossomPut(s, dan, randomBytes(100), { 'x-publish-metadata': 'false' })).status).toBe(201);
    expect((await nip96Post(s, dan, randomBytes(100), { no_transform: 'true' })).status).toBe(201);
    expect((await nip96Post(s, dan, randomBytes(100), { publish: 'false' })).status).toBe(201);
    expect(stats.declined - before.declined).toBe(3);
    // One announced upload, to see the relay answer: it is the only kind 1063 of this key there.
    const announced = randomBytes(100);
    expect((await blossomPut(s, dan, announced)).status).toBe(201);
    await waitFor(() => stats.published - before.published === 1);
    const events = await s.station.client.query([{ kinds: [1063], authors: [dan.hex] }]);
    expect(events.map((e) => e.tags.find((t) => t[0] === 'x')?.[1])).toEqual([sha256(announced)]);
    expect(stats.failed).toBe(before.failed);
  });
});

describe('NIP-94 announcements switched off for the station', () => {
  let s: BlossomStation;
  beforeAll(async () => {
    s = await startBlossomStation({ PUBLISH_FILE_METADATA: 'false' });
  });
  afterAll(() => s.stop());

  it('announces nothing, and counts every new upload as declined', async () => {
    const erin = await localUser(s, 'erin@example.org');
    expect((await blossomPut(s, erin, randomBytes(100))).status).toBe(201);
    expect((await nip96Post(s, erin, randomBytes(100), {})).status).toBe(201);
    const stats = s.station.t.app.fileMetadata.stats;
    expect(stats).toEqual({ published: 0, declined: 2, failed: 0 });
  });
});
