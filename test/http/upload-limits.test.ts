import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postUpload, register } from '../helpers/multipart.js';
import { nip98Header } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';

describe('per-user upload limits', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const staged = async () => readdir(join(t.config.dataRoot, '.drive-staging')).catch(() => [] as string[]);

  it('refuses the uploads a user starts beyond UPLOAD_MAX_PER_MINUTE, before staging them', async () => {
    t = await buildTestApp({ env: { UPLOAD_MAX_PER_MINUTE: '2' } });
    const owner = await register(t, 'rate@example.org');
    const send = (name: string) =>
      postUpload(t, '/api/upload', { npub: owner.npub, file: { filename: name, value: 'x' }, signer: owner });
    expect((await send('a.txt')).statusCode).toBe(200);
    expect((await send('b.txt')).statusCode).toBe(200);
    const third = await send('c.txt');
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('UPLOAD_RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(await staged()).toEqual([]);
    const other = await register(t, 'other@example.org');
    const theirs = await postUpload(t, '/api/upload', {
      npub: other.npub,
      file: { filename: 'd.txt', value: 'x' },
      signer: other,
    });
    expect(theirs.statusCode).toBe(200);
  });

  it('refuses a second upload of one user while the first is still streaming', async () => {
    t = await buildTestApp({ env: { UPLOAD_MAX_CONCURRENT: '1' } });
    const owner = await register(t, 'slow@example.org');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const boundary = '----slow';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="npub"\r\n\r\n${owner.npub}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    // The first upload sends its fields and the start of its file, then waits.
    const first = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/upload',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: nip98Header(owner, `http://127.0.0.1:${port}/api/upload`, 'POST'),
      },
    });
    const firstAnswer = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      first.on('error', reject);
    });
    first.write(head);
    // More than one write batch of staging (256 KiB): its staging file is made before the end comes.
    first.write(Buffer.alloc(320 * 1024, 1));
    await waitFor(async () => (await staged()).length === 1);

    const second = await postUpload(t, '/api/upload', {
      npub: owner.npub,
      file: { filename: 'b.txt', value: 'x' },
      signer: owner,
    });
    expect(second.statusCode).toBe(429);
    expect(second.json().code).toBe('UPLOAD_CONCURRENCY_LIMITED');

    first.end(tail);
    expect(await firstAnswer).toBe(200);
    const third = await postUpload(t, '/api/upload', {
      npub: owner.npub,
      file: { filename: 'c.txt', value: 'x' },
      signer: owner,
    });
    expect(third.statusCode).toBe(200);
  });
});
