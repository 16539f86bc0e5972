import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchPublic,
  isPublicAddress,
  MirrorFetchFailedError,
  MirrorTooLargeError,
  MirrorUrlRefusedError,
  type PublicFetchOptions,
} from '../../../src/drive/blossom/public-fetch.js';

interface Loopback {
  origin: string;
  port: number;
  requests: IncomingMessage[];
  server: Server;
}

const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Loopback> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, requests, server };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const noLookup = async (hostname: string): Promise<never> => {
  throw new Error(`${hostname} should not have been resolved`);
};

const base: PublicFetchOptions = { maxBytes: 1024 * 1024, timeoutMs: 5_000, lookup: noLookup };

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function refusal(promise: Promise<unknown>): Promise<MirrorUrlRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MirrorUrlRefusedError);
  expect(error).toMatchObject({ code: 'MIRROR_URL_REFUSED' });
  return error as MirrorUrlRefusedError;
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.19.0.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::1',
    '2001:db8::1',
    '::127.0.0.1',
    'not an address',
    'localhost',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('fetchPublic refuses what is not a public http(s) URL', () => {
  it('refuses a loopback literal without connecting to it', async () => {
    const target = await serve((_req, res) => res.end('secret'));
    const error = await refusal(fetchPublic(`${target.origin}/x`, base));
    expect(error.message).toMatch(/127\.0\.0\.1.*loopback/);
    expect(target.requests).toHaveLength(0);
  });

  it.each([
    'http://10.0.0.1/x',
    'http://169.254.169.254/latest',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'ftp://example.com/x',
    'file:///etc/passwd',
    'http://user:pw@example.com/',
    'not a url',
  ])('refuses %s', async (url) => {
    await refusal(fetchPublic(url, base));
  });

  it('refuses a name that resolves to loopback, or to any non-public address among public ones', async () => {
    const error = await refusal(
      fetchPublic('http://sneaky.test/x', {
        ...base,
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    );
    expect(error.message).toBe(
      'sneaky.test resolves to 127.0.0.1, a loopback address; only public addresses can be mirrored',
    );
    const mixed = await refusal(
      fetchPublic('http://mixed.test/x', {
        ...base,
        lookup: async () => [
          { address: '8.8.8.8', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      }),
    );
    expect(mixed.message).toMatch(/mixed\.test resolves to 127\.0\.0\.1/);
  });

  it('does not trust an origin that differs from a trusted one only by port', async () => {
    const target = await serve((_req, res) => res.end('secret'));
    await refusal(fetchPublic(`${target.origin}/x`, { ...base, trustedOrigins: ['http://127.0.0.1:1'] }));
    expect(target.requests).toHaveLength(0);
  });

  it('reports a name that does not resolve as a failed fetch', async () => {
    const failing = fetchPublic('http://nowhere.test/', {
      ...base,
      lookup: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      },
    });
    await expect(failing).rejects.toBeInstanceOf(MirrorFetchFailedError);
    await expect(failing).rejects.toMatchObject({ code: 'MIRROR_FETCH_FAILED' });
  });
});

describe('fetchPublic against a trusted origin', () => {
  it('streams the body back byte for byte with its type and length', async () => {
    const bytes = randomBytes(300 * 1024);
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png; charset=binary', 'content-length': bytes.length });
      res.end(bytes);
    });
    const response = await fetchPublic(`${target.origin}/blob.png`, {
      ...base,
      trustedOrigins: [target.origin],
    });
    expect(response).toMatchObject({
      url: `${target.origin}/blob.png`,
      contentType: 'image/png; charset=binary',
      contentLength: bytes.length,
    });
    expect((await collect(response.body)).equals(bytes)).toBe(true);
  });

  it('connects to the address it judged and keeps the host name in the Host header', async () => {
    const target = await serve((_req, res) => res.end('pinned'));
    const lookups: string[] = [];
    const origin = `http://mirror.test:${target.port}`;
    const response = await fetchPublic(`${origin}/a?b=c`, {
      ...base,
      trustedOrigins: [origin],
      lookup: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect((await collect(response.body)).toString()).toBe('pinned');
    expect(lookups).toEqual(['mirror.test']);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.headers.host).toBe(`mirror.test:${target.port}`);
    expect(target.requests[0]!.url).toBe('/a?b=c');
    expect(target.requests[0]!.method).toBe('GET');
  });

  it('re-judges every redirect hop: a trusted origin cannot send the fetch to an untrusted one', async () => {
    const other = await serve((_req, res) => res.end('secret'));
    const target = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/secret` });
      res.end();
    });
    const error = await refusal(
      fetchPublic(`${target.origin}/go`, { ...base, trustedOrigins: [target.origin] }),
    );
    expect(error.message).toMatch(/loopback/);
    expect(other.requests).toHaveLength(0);
  });

  it('re-resolves a redirect to a host name, and refuses it when it resolves to a private address', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(307, { location: 'http://intranet.test/admin' });
      res.end();
    });
    const lookups: string[] = [];
    const error = await refusal(
      fetchPublic(`${target.origin}/go`, {
        ...base,
        trustedOrigins: [target.origin],
        lookup: async (hostname) => {
          lookups.push(hostname);
          return [{ address: '192.168.0.10', family: 4 }];
        },
      }),
    );
    expect(error.message).toMatch(/intranet\.test resolves to 192\.168\.0\.10, a private address/);
    expect(lookups).toEqual(['intranet.test']);
  });

  it('refuses a redirect to another scheme', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(301, { location: 'file:///etc/passwd' });
      res.end();
    });
    await refusal(fetchPublic(`${target.origin}/go`, { ...base, trustedOrigins: [target.origin] }));
  });

  it('follows a relative redirect within the trusted origin', async () => {
    const target = await serve((req, res) => {
      if (req.url === '/start') {
        res.writeHead(303, { location: 'final?x=1' });
        res.end();
      } else res.end(`reached ${req.url}`);
    });
    const response = await fetchPublic(`${target.origin}/start`, {
      ...base,
      trustedOrigins: [target.origin],
    });
    expect(response.url).toBe(`${target.origin}/final?x=1`);
    expect((await collect(response.body)).toString()).toBe('reached /final?x=1');
    expect(target.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('gives up on a redirect loop after maxRedirects hops with a failed fetch', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    });
    const failing = fetchPublic(`${target.origin}/loop`, {
      ...base,
      maxRedirects: 2,
      trustedOrigins: [target.origin],
    });
    await expect(failing).rejects.toBeInstanceOf(MirrorFetchFailedError);
    await expect(failing).rejects.toThrow(/more than 2 times/);
    expect(target.requests).toHaveLength(3);
  });

  it('reports a non-2xx answer as a failed fetch naming the status', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(404);
      res.end('no such blob');
    });
    const failing = fetchPublic(`${target.origin}/missing`, { ...base, trustedOrigins: [target.origin] });
    await expect(failing).rejects.toBeInstanceOf(MirrorFetchFailedError);
    await expect(failing).rejects.toMatchObject({ code: 'MIRROR_FETCH_FAILED' });
    await expect(failing).rejects.toThrow(/404/);
  });

  it('refuses a Content-Length above maxBytes before reading the body', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 2048 });
      res.end(Buffer.alloc(2048));
    });
    const failing = fetchPublic(`${target.origin}/big`, {
      ...base,
      maxBytes: 2047,
      trustedOrigins: [target.origin],
    });
    await expect(failing).rejects.toBeInstanceOf(MirrorTooLargeError);
    await expect(failing).rejects.toMatchObject({ code: 'MIRROR_TOO_LARGE' });
  });

  it('accepts a body of exactly maxBytes', async () => {
    const target = await serve((_req, res) => res.end(Buffer.alloc(2048, 7)));
    const response = await fetchPublic(`${target.origin}/exact`, {
      ...base,
      maxBytes: 2048,
      trustedOrigins: [target.origin],
    });
    expect((await collect(response.body)).length).toBe(2048);
  });

  it('stops a chunked body once it grows past maxBytes and closes the connection', async () => {
    let closed!: Promise<void>;
    const target = await serve((req, res) => {
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // Never ends on its own: only the client closing the socket stops it.
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 1);
      res.once('close', () => clearInterval(timer));
    });
    const response = await fetchPublic(`${target.origin}/endless`, {
      ...base,
      maxBytes: 100 * 1024,
      trustedOrigins: [target.origin],
    });
    expect(response.contentLength).toBeNull();
    await expect(collect(response.body)).rejects.toBeInstanceOf(MirrorTooLargeError);
    await closed;
  });

  it('closes the connection when the reader stops early', async () => {
    let closed!: Promise<void>;
    const target = await serve((req, res) => {
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
      const timer = setInterval(() => res.write(Buffer.alloc(1024)), 1);
      res.once('close', () => clearInterval(timer));
    });
    const response = await fetchPublic(`${target.origin}/endless`, {
      ...base,
      trustedOrigins: [target.origin],
    });
    for await (const chunk of response.body) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await closed;
  });

  it('fails a fetch whose headers never come, and a body that stalls', async () => {
    const silent = await serve(() => {});
    const waiting = fetchPublic(`${silent.origin}/`, {
      ...base,
      timeoutMs: 100,
      trustedOrigins: [silent.origin],
    });
    await expect(waiting).rejects.toBeInstanceOf(MirrorFetchFailedError);

    const stalling = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 10 });
      res.write('12345');
    });
    const response = await fetchPublic(`${stalling.origin}/`, {
      ...base,
      timeoutMs: 100,
      trustedOrigins: [stalling.origin],
    });
    await expect(collect(response.body)).rejects.toBeInstanceOf(MirrorFetchFailedError);
  });

  it('fails a body the origin cuts short', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 10 });
      res.write('12345', () => res.socket?.destroy());
    });
    const response = await fetchPublic(`${target.origin}/`, { ...base, trustedOrigins: [target.origin] });
    await expect(collect(response.body)).rejects.toBeInstanceOf(MirrorFetchFailedError);
  });

  it('reports a refused connection as a failed fetch', async () => {
    const target = await serve(() => {});
    const { origin } = target;
    await new Promise((resolve) => target.server.close(resolve));
    const failing = fetchPublic(`${origin}/`, { ...base, trustedOrigins: [origin] });
    await expect(failing).rejects.toBeInstanceOf(MirrorFetchFailedError);
    await expect(failing).rejects.toThrow(/ECONNREFUSED/);
  });

  it('rejects with the abort reason when the caller aborts, before or during the body', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const before = new AbortController();
    before.abort(new Error('client went away'));
    await expect(
      fetchPublic(`${target.origin}/`, { ...base, trustedOrigins: [target.origin], signal: before.signal }),
    ).rejects.toThrow('client went away');

    const during = new AbortController();
    const response = await fetchPublic(`${target.origin}/`, {
      ...base,
      trustedOrigins: [target.origin],
      signal: during.signal,
    });
    const reading = collect(response.body);
    during.abort(new Error('client went away'));
    await expect(reading).rejects.toThrow('client went away');
  });
});
