import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { multipart, register, type FormPart } from '../helpers/multipart.js';
import { nip98Header, type TestKey } from '../helpers/nostr.js';

const ROUTES = ['/api/upload', '/api/fileupload'];
const BIG = Buffer.alloc(20 * 1024 * 1024, 'a');

/** Nothing is staged for nobody: the owner must be known when the file part starts. */
describe('anonymous uploads are refused before staging', () => {
  let t: TestApp;
  let receives = 0;
  afterEach(() => t.close());

  async function start(env: Record<string, string> = {}) {
    t = await buildTestApp({ env });
    receives = 0;
    const staging = t.app.drive.staging;
    const receive = staging.receive.bind(staging);
    vi.spyOn(staging, 'receive').mockImplementation((source, limits) => {
      receives += 1;
      return receive(source, limits);
    });
  }

  const stagedFiles = async () =>
    (await readdir(join(t.config.dataRoot, '.drive-staging')).catch(() => [] as string[])).length;

  function send(path: string, parts: FormPart[], options: { signer?: TestKey; remoteAddress?: string } = {}) {
    const { body, contentType } = multipart(parts);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (options.signer)
      headers.authorization = nip98Header(options.signer, `http://localhost${path}`, 'POST', { body });
    return t.app.inject({ method: 'POST', url: path, payload: body, headers, ...options });
  }

  it.each(ROUTES)('%s: a 20 MB upload without Authorization or npub is 401, nothing staged', async (path) => {
    await start();
    const res = await send(path, [{ name: 'file', value: BIG, filename: 'big.bin' }]);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'AUTH_REQUIRED' });
    expect(receives).toBe(0);
    expect(await stagedFiles()).toBe(0);
  });

  it.each(ROUTES)('%s: an npub sent after the file does not name the owner (401)', async (path) => {
    await start();
    const owner = await register(t, 'late@example.org');
    const res = await send(path, [
      { name: 'file', value: BIG, filename: 'big.bin' },
      { name: 'npub', value: owner.npub },
    ]);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('AUTH_REQUIRED');
    expect(receives).toBe(0);
    expect(await stagedFiles()).toBe(0);
  });

  it('answers 401 while the body is still arriving, before the rest of it is sent', async () => {
    await start();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const boundary = '----anonymous';
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    req.write(Buffer.alloc(1024 * 1024, 'a'));
    // The request is never finished: only an answer given before the end of the body arrives here.
    const { status, body } = await answer;
    req.destroy();
    expect(status).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(receives).toBe(0);
    expect(await stagedFiles()).toBe(0);
  });

  it('limits the uploads one client address starts, whatever keys it uses (429, Retry-After)', async () => {
    await start({ TRUSTED_IPS: '10.9.9.9', UPLOAD_IP_MAX_PER_MINUTE: '2' });
    const users = await Promise.all(['a', 'b', 'c'].map((n) => register(t, `${n}@example.org`)));
    const upload = (who: TestKey, remoteAddress: string) =>
      send(
        '/api/upload',
        [
          { name: 'npub', value: who.npub },
          { name: 'file', value: 'x', filename: 'x.txt' },
        ],
        { signer: who, remoteAddress },
      );
    expect((await upload(users[0]!, '192.0.2.7')).statusCode).toBe(200);
    expect((await upload(users[1]!, '192.0.2.7')).statusCode).toBe(200);
    const before = receives;
    const limited = await upload(users[2]!, '192.0.2.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      detail: expect.stringContaining('address'),
      code: 'UPLOAD_RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(receives).toBe(before);
    expect((await upload(users[2]!, '192.0.2.8')).statusCode).toBe(200);
    // A trusted address (TRUSTED_IPS) is exempt, as from the rate limit.
    for (const who of users) expect((await upload(who, '10.9.9.9')).statusCode).toBe(200);
  });
});
