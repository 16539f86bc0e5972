import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestKey } from '../../helpers/nostr.js';
import { blossomToken, bytesOf, expectError, nostrAuth, sha256Hex, stagedLeftovers } from './requests.js';
import { driveFiles, localUser, startBlossomStation, type BlossomStation } from './station.js';

const ALICE = 'alice@example.org';
const MB = 1024 * 1024;

interface Origin {
  url: string;
  port: number;
  requests: string[];
  server: Server;
}

async function origin(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Origin> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, requests, server };
}

async function close(o: Origin | undefined) {
  if (!o) return;
  o.server.closeAllConnections();
  await new Promise((resolve) => o.server.close(resolve));
}

describe('PUT /mirror refusals', () => {
  /** What the untrusted loopback server and the trusted origin's good path serve. */
  const blob = randomBytes(50_000);
  const other = randomBytes(50_000);
  const big = randomBytes(MB + 200_000);
  const cookies = Buffer.from(
    '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t1999999999\tsession\tsecret\n',
  );
  let untrusted: Origin;
  let trusted: Origin;
  let s: BlossomStation;
  let alice: TestKey;

  beforeAll(async () => {
    untrusted = await origin((_req, res) => res.writeHead(200).end(blob));
    trusted = await origin((req, res) => {
      switch (req.url) {
        case '/blob':
          return res.writeHead(200, { 'content-type': 'image/png' }).end(blob);
        case '/cookies.txt':
          return res.writeHead(200, { 'content-type': 'text/plain' }).end(cookies);
        case '/other':
          return res.writeHead(200, { 'content-type': 'image/png' }).end(other);
        case '/to-untrusted':
          return res.writeHead(302, { location: `${untrusted.url}/x` }).end();
        case '/to-metadata':
          return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
        case '/big':
          return res.writeHead(200, { 'content-length': String(big.length) }).end(big);
        case '/big-chunked': {
          // No Content-Length: the limit can only be seen while the bytes arrive.
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let at = 0; at < big.length; at += 64 * 1024) res.write(big.subarray(at, at + 64 * 1024));
          return res.end();
        }
        default:
          return res.writeHead(404).end('no such file');
      }
    });
    s = await startBlossomStation({
      RATE_LIMIT_MAX: '100000',
      PUBLISH_FILE_METADATA: 'false',
      MIRROR_MAX_MB: '1',
      MIRROR_TIMEOUT: '10',
      MIRROR_TRUSTED_ORIGINS: trusted.url,
    });
    alice = await localUser(s, ALICE);
  });
  afterAll(async () => {
    await s?.stop();
    await close(untrusted);
    await close(trusted);
  });
  beforeEach(() => {
    untrusted.requests.length = 0;
  });

  const snapshot = async () => (await driveFiles(s, ALICE)).map((f) => `${f.path} ${f.sha256}`).sort();

  /** PUT /mirror with a valid t=upload token for `x` (default: the blob's hash). */
  function mirror(body: unknown, x = sha256Hex(blob), raw = false) {
    return fetch(`${s.server}/mirror`, {
      method: 'PUT',
      headers: {
        authorization: nostrAuth(blossomToken(alice, { x: [x] })),
        'content-type': 'application/json',
      },
      body: raw ? (body as string) : JSON.stringify(body),
    });
  }

  /** A refusal that changed nothing: same drive, nothing staged, the blob not served. */
  async function refused(response: Response, status: number, code?: string) {
    const before = await snapshot();
    const answer = await expectError(response, status, code);
    expect(await snapshot()).toEqual(before);
    expect(await stagedLeftovers(s)).toEqual([]);
    return answer;
  }

  it('mirrors from the trusted origin (the control every refusal differs from)', async () => {
    const response = await mirror({ url: `${trusted.url}/blob` });
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await response.json()).toMatchObject({ sha256: sha256Hex(blob), size: blob.length });
    const back = await fetch(`${s.server}/${sha256Hex(blob)}`);
    expect((await bytesOf(back)).equals(blob)).toBe(true);
  });

  it('refuses a live loopback server that is not trusted (400 MIRROR_URL_REFUSED) without a request to it', async () => {
    await refused(await mirror({ url: `${untrusted.url}/x` }), 400, 'MIRROR_URL_REFUSED');
    expect(untrusted.requests).toEqual([]);
  });

  it.each([
    ['a private address', 'http://10.0.0.1/x'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['the unspecified address', 'http://0.0.0.0/x'],
    ['an IPv4-mapped loopback address', 'http://[::ffff:127.0.0.1]/x'],
  ])('refuses %s (400 MIRROR_URL_REFUSED)', async (_what, url) => {
    await refused(await mirror({ url }), 400, 'MIRROR_URL_REFUSED');
  });

  it('refuses IPv6 loopback on the untrusted server’s port (400 MIRROR_URL_REFUSED)', async () => {
    await refused(await mirror({ url: `http://[::1]:${untrusted.port}/` }), 400, 'MIRROR_URL_REFUSED');
    expect(untrusted.requests).toEqual([]);
  });

  it.each([
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://ftp.example.org/pub/file.bin'],
    ['data:', 'data:text/plain;base64,aGVsbG8='],
    ['credentials in the URL', 'http://user:pass@example.org/x'],
    ['a relative URL', '/etc/passwd'],
  ])('refuses %s (400 MIRROR_URL_REFUSED)', async (_what, url) => {
    await refused(await mirror({ url }), 400, 'MIRROR_URL_REFUSED');
  });

  it('refuses a trusted origin redirecting to the untrusted loopback server, which gets no request', async () => {
    await refused(await mirror({ url: `${trusted.url}/to-untrusted` }), 400, 'MIRROR_URL_REFUSED');
    expect(untrusted.requests).toEqual([]);
  });

  it('refuses a trusted origin redirecting to the metadata address', async () => {
    await refused(await mirror({ url: `${trusted.url}/to-metadata` }), 400, 'MIRROR_URL_REFUSED');
  });

  it('refuses bytes whose hash is not the token’s x (409 BLOB_HASH_MISMATCH), keeping none of them', async () => {
    const x = sha256Hex(randomBytes(32));
    await refused(await mirror({ url: `${trusted.url}/other` }, x), 409, 'BLOB_HASH_MISMATCH');
    expect((await driveFiles(s, ALICE)).some((f) => f.sha256 === sha256Hex(other))).toBe(false);
    expect((await fetch(`${s.server}/${sha256Hex(other)}`)).status).toBe(404);
  });

  it('refuses an X-SHA-256 naming other bytes than the origin serves (409 BLOB_HASH_MISMATCH)', async () => {
    const x = sha256Hex(randomBytes(32));
    const response = await fetch(`${s.server}/mirror`, {
      method: 'PUT',
      headers: {
        authorization: nostrAuth(blossomToken(alice, { x: [x] })),
        'content-type': 'application/json',
        'x-sha-256': x,
      },
      body: JSON.stringify({ url: `${trusted.url}/other` }),
    });
    await refused(response, 409, 'BLOB_HASH_MISMATCH');
    expect((await fetch(`${s.server}/${sha256Hex(other)}`)).status).toBe(404);
  });

  it.each([
    ['{}', '{}'],
    ['not JSON', 'this is not json'],
    ['a JSON string', '"http://example.org/x"'],
    ['an empty url', '{"url":""}'],
    ['a url that is not a string', '{"url":42}'],
  ])('refuses a body that is %s (400)', async (_what, body) => {
    await refused(await mirror(body, sha256Hex(blob), true), 400);
  });

  it('refuses a mirrored Netscape cookie file (400 COOKIE_FILE): never in the drive', async () => {
    await refused(
      await mirror({ url: `${trusted.url}/cookies.txt` }, sha256Hex(cookies)),
      400,
      'COOKIE_FILE',
    );
    expect((await fetch(`${s.server}/${sha256Hex(cookies)}`)).status).toBe(404);
  });

  it('answers 502 MIRROR_FETCH_FAILED when the origin answers 404', async () => {
    await refused(await mirror({ url: `${trusted.url}/missing` }), 502, 'MIRROR_FETCH_FAILED');
  });

  it('answers 413 for an origin bigger than MIRROR_MAX_MB (Content-Length announced)', async () => {
    await refused(await mirror({ url: `${trusted.url}/big` }, sha256Hex(big)), 413);
    expect((await fetch(`${s.server}/${sha256Hex(big)}`)).status).toBe(404);
  });

  it('answers 413 for an origin bigger than MIRROR_MAX_MB (no Content-Length)', async () => {
    await refused(await mirror({ url: `${trusted.url}/big-chunked` }, sha256Hex(big)), 413);
    expect((await fetch(`${s.server}/${sha256Hex(big)}`)).status).toBe(404);
  });

  it('refuses a mirror without a token (401) before fetching anything', async () => {
    const response = await fetch(`${s.server}/mirror`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${untrusted.url}/x` }),
    });
    await refused(response, 401, 'BLOSSOM_AUTH_REQUIRED');
    expect(untrusted.requests).toEqual([]);
  });
});
