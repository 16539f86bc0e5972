import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * UPassport's upload2ipfs page (`fetch('/upload2ipfs', {method: 'POST', body: new FormData(form)})`, field
 * `file`) and NIP-96 clients: the route is not there yet; they get a sentence that says so and what to use,
 * which the page prints as the error text.
 */
describe('upload2ipfs (NIP-96) clients', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('answers 404 NOT_IMPLEMENTED_YET naming NIP-96, without reading the file', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(256 * 1024, 1)], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${base}/upload2ipfs`, { method: 'POST', body: form });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string; code: string };
    expect(body).toEqual({ detail: expect.stringContaining('NIP-96'), code: 'NOT_IMPLEMENTED_YET' });
    expect(body.detail).toContain('/api/upload');
    // The station still answers on a new connection.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
