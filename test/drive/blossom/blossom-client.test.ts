import { createHash, randomBytes } from 'node:crypto';
import { createDeleteAuth, createUploadAuth, Actions, createMirrorAuth } from 'blossom-client-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/relay.js';
import type { TestKey } from '../../helpers/nostr.js';
import { driveFiles, localUser, signerFor, startBlossomStation, type BlossomStation } from './station.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Uploads the way Blossom clients do: HEAD /upload, 401, sign, PUT with the token. */
function upload(s: BlossomStation, key: TestKey, bytes: Buffer, type = 'image/png', message = 'Upload Blob') {
  const blob = new Blob([bytes], { type });
  return Actions.uploadBlob(s.server, blob, {
    onAuth: (_server, hash) => createUploadAuth(signerFor(key), hash, { message }),
  });
}

describe('Blossom with blossom-client-sdk', () => {
  let s: BlossomStation;
  let alice: TestKey;
  let bob: TestKey;
  let origin: Server;
  let originUrl: string;
  const mirrored = randomBytes(200_000);

  beforeAll(async () => {
    origin = createServer((request, response) => {
      if (request.url === '/file.bin') {
        response.writeHead(200, { 'content-type': 'application/pdf' }).end(mirrored);
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    s = await startBlossomStation({ MIRROR_TRUSTED_ORIGINS: originUrl });
    alice = await localUser(s, 'alice@example.org');
    bob = await localUser(s, 'bob@example.org');
  });
  afterAll(async () => {
    await s.stop();
    await new Promise((resolve) => origin.close(resolve));
  });

  it('uploads into the drive, once per SHA-256, and serves the bytes back by hash', async () => {
    const bytes = randomBytes(70_000);
    const first = await upload(s, alice, bytes);
    expect(first).toMatchObject({ sha256: sha256(bytes), size: bytes.length, type: 'image/png' });
    expect(first.url).toBe(`${s.server}/${sha256(bytes)}.png`);
    // A new token: the same one, signed within the same second, would be the very same event (a replay).
    const again = await upload(s, alice, bytes, 'image/png', 'Upload again');
    expect(again.sha256).toBe(first.sha256);
    const files = (await driveFiles(s, 'alice@example.org')).filter((f) => f.sha256 === first.sha256);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ category: 'Images', source: { kind: 'blossom' } });
    // What the drive explorer reads: the published manifest of the new root.
    const listing = (await (await fetch(`${s.server}/api/drive?npub=${alice.npub}`)).json()) as {
      files: { sha256: string; path: string }[];
    };
    expect(listing.files.find((f) => f.sha256 === first.sha256)?.path).toBe(files[0]!.path);

    const back = await fetch(first.url);
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(back.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(`${s.server}/${first.sha256}`, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);
    const head = await fetch(`${s.server}/${first.sha256}.jpg`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(await Actions.hasBlob(s.server, first.sha256)).toBe(true);
  });

  it('lists a user’s blobs newest first, and pages them', async () => {
    const a = await upload(s, bob, randomBytes(1000), 'text/plain');
    const b = await upload(s, bob, randomBytes(1000), 'application/pdf');
    const list = await Actions.listBlobs(s.server, bob.hex);
    expect(list.map((d) => d.sha256)).toEqual(expect.arrayContaining([a.sha256, b.sha256]));
    const firstPage = await Actions.listBlobs(s.server, bob.hex, { limit: 1 });
    expect(firstPage).toHaveLength(1);
    const rest = await Actions.listBlobs(s.server, bob.hex, { cursor: firstPage[0]!.sha256 });
    expect(rest.map((d) => d.sha256)).not.toContain(firstPage[0]!.sha256);
    expect(rest.length).toBe(list.length - 1);
  });

  it('mirrors a blob from a URL (here a trusted LAN origin) after checking its hash', async () => {
    const hash = sha256(mirrored);
    const descriptor = await Actions.mirrorBlob(
      s.server,
      {
        url: `${originUrl}/file.bin`,
        sha256: hash,
        size: mirrored.length,
        type: 'application/pdf',
        uploaded: 0,
      },
      { onAuth: () => createMirrorAuth(signerFor(alice), hash) },
    );
    expect(descriptor).toMatchObject({ sha256: hash, size: mirrored.length, type: 'application/pdf' });
    const files = await driveFiles(s, 'alice@example.org');
    expect(files.find((f) => f.sha256 === hash)?.source).toEqual({
      kind: 'mirror',
      url: `${originUrl}/file.bin`,
    });
  });

  it('deletes a blob from the caller’s drive only', async () => {
    const bytes = randomBytes(5000);
    const mine = await upload(s, alice, bytes);
    await upload(s, bob, bytes);
    await Actions.deleteBlob(s.server, mine.sha256, {
      onAuth: (_server, hash) => createDeleteAuth(signerFor(alice), hash),
    });
    expect((await driveFiles(s, 'alice@example.org')).some((f) => f.sha256 === mine.sha256)).toBe(false);
    expect((await driveFiles(s, 'bob@example.org')).some((f) => f.sha256 === mine.sha256)).toBe(true);
    expect((await fetch(mine.url)).status).toBe(200);
    await Actions.deleteBlob(s.server, mine.sha256, {
      onAuth: (_server, hash) => createDeleteAuth(signerFor(bob), hash),
    });
    const gone = await fetch(mine.url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ detail: expect.any(String), code: 'BLOB_NOT_FOUND' });
    expect(gone.headers.get('x-reason')).toContain('No blob');
  });

  it('announces each new upload with a kind-1063 event signed by the uploader', async () => {
    const bytes = randomBytes(3000);
    const descriptor = await upload(s, alice, bytes, 'image/png');
    let found: { tags: string[][]; pubkey: string } | undefined;
    await waitFor(async () => {
      const events = await s.station.client.query([{ kinds: [1063], authors: [alice.hex] }]);
      found = events.find((e) => e.tags.some((t) => t[0] === 'x' && t[1] === descriptor.sha256));
      return found !== undefined;
    });
    const tag = (name: string) => found!.tags.find((t) => t[0] === name)?.[1];
    expect(found!.pubkey).toBe(alice.hex);
    expect(tag('url')).toBe(descriptor.url);
    expect(tag('m')).toBe('image/png');
    expect(tag('ox')).toBe(descriptor.sha256);
    expect(tag('size')).toBe(String(bytes.length));
    expect(tag('cid')).toBe((descriptor as unknown as { cid: string }).cid);
  });
});
