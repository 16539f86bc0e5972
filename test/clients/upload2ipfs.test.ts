import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * UPassport's upload2ipfs page (`fetch('/upload2ipfs', {method: 'POST', body: new FormData(form)})`, field
 * `file`) uploads anonymously. The route is now this station's NIP-96 endpoint (test/drive/nip96), where only
 * local users, proven by NIP-98, upload: the page gets a sentence saying so, which it prints as the error.
 */
describe('UPassport’s upload2ipfs page', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('answers an anonymous upload 401 naming the proof it needs, and stages nothing', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(256 * 1024, 1)], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${base}/upload2ipfs`, { method: 'POST', body: form });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { detail: string; code: string };
    expect(body).toEqual({ detail: expect.stringContaining('Authorization'), code: 'PROOF_REQUIRED' });
    expect(res.headers.get('x-reason')).toContain('Authorization');
    expect(await readdir(t.app.drive.staging.dir).catch(() => [])).toEqual([]);
    // The station still answers on a new connection.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
