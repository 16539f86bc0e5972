import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { postForm, register, type FormPart, type Owner } from '../helpers/multipart.js';
import { upload } from './http.js';

describe('drive routes: limits and malformed uploads', () => {
  let t: TestApp;
  let erin: Owner;

  beforeAll(async () => {
    t = await buildTestApp({ env: { DRIVE_QUOTA_MB: '1' } });
    erin = await register(t, 'erin@example.org');
  });
  afterAll(() => t.close());

  const driveFiles = async () =>
    (await readdir(join(erin.dir, 'APP', 'uDRIVE'), { recursive: true })).filter(
      // The drive's files in their folders, not its exported manifest.json (drive/export.ts).
      (f) => f.includes('/') && !f.startsWith('.'),
    );
  const staging = () => readdir(join(t.config.dataRoot, '.drive-staging')).catch(() => []);

  it('answers 413 over the quota, for one file or for the sum, leaving nothing behind', async () => {
    const tooBig = await upload(t, erin, 'big.bin', Buffer.alloc(1024 * 1024 + 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toMatch(/QUOTA_EXCEEDED|FILE_TOO_LARGE/);
    expect((await upload(t, erin, 'half.bin', Buffer.alloc(600 * 1024))).statusCode).toBe(200);
    const over = await upload(t, erin, 'other.bin', Buffer.alloc(600 * 1024));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ code: 'QUOTA_EXCEEDED', detail: expect.stringContaining('1 MB') });
    expect(await driveFiles()).toEqual([join('Documents', 'half.bin')]);
    expect(await staging()).toEqual([]);
  });

  it('refuses a form without a file or with a misnamed one (400), two files (413), not multipart (400)', async () => {
    const send = (parts: FormPart[]) => postForm(t, '/api/upload', parts, erin);
    const none = await send([{ name: 'npub', value: erin.npub }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('MISSING_FILE');
    const two = await send([
      { name: 'file', value: 'a', filename: 'a.txt' },
      { name: 'other', value: 'b', filename: 'b.txt' },
    ]);
    expect(two.statusCode).toBe(413);
    expect(two.json().code).toBe('TOO_MANY_FILES');
    const misnamed = await send([{ name: 'upload', value: 'a', filename: 'a.txt' }]);
    expect(misnamed.statusCode).toBe(400);
    expect(misnamed.json().code).toBe('UNEXPECTED_FILE');
    const json = await t.app.inject({ method: 'POST', url: '/api/upload', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await staging()).toEqual([]);
  });

  it('reports the content store in /health', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toMatchObject({ content_store: 'embedded' });
  });
});
