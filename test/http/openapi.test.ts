import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface Operation {
  summary?: string;
  responses?: Record<string, unknown>;
}

describe('OpenAPI description', () => {
  let t: TestApp;
  let spec: { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await buildTestApp();
    spec = (await t.app.inject({ url: '/docs/json' })).json();
  });
  afterAll(() => t.close());

  it('is OpenAPI 3 and lists the API of the contract', () => {
    expect(spec.openapi).toMatch(/^3\./);
    for (const path of [
      '/',
      '/health',
      '/g1nostr',
      '/api/fileupload',
      '/api/upload',
      '/api/upload_from_drive',
      '/api/delete',
      '/api/test-nostr',
      '/api/nip42/challenge',
      '/check_balance',
      '/check_society',
      '/check_revenue',
      '/cookie',
      '/scan',
      '/g1',
      '/nostr',
    ]) {
      expect(Object.keys(spec.paths), path).toContain(path);
    }
  });

  it('carries the version of package.json', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(spec.info.version).toBe(pkg.version);
  });

  it('documents a summary and a success response for every operation', () => {
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(operation.responses ?? {}), `${method} ${path}`).toContain('200');
      }
    }
  });

  it('serves the UI from the service itself', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
