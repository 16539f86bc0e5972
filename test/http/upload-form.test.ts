import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SizeLimit } from '../../src/fs/head-bytes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { authorizationHeader, newKey, nip98Header, type TestKey } from '../helpers/nostr.js';
import { postForm, register, type Owner } from '../helpers/multipart.js';

const FILE = Buffer.alloc(256 * 1024, 'a');

/**
 * Both upload routes pre-check the sender when the file part starts (`beforeFile` → `precheckOwner`): what can
 * never be authorised is refused before a byte is staged, with the status and code `requireOwner` gives.
 */
describe.each(['/api/upload', '/api/fileupload'])('%s: refused before the file is staged', (path) => {
  let t: TestApp;
  let alice: Owner;
  let stagedBytes = 0;

  beforeAll(async () => {
    t = await buildTestApp();
    alice = await register(t, 'alice@example.org');
    // Counts what reaches the staging area, by wrapping the real one.
    const staging = t.app.drive.staging;
    const receive = staging.receive.bind(staging);
    vi.spyOn(staging, 'receive').mockImplementation((source, limits: readonly SizeLimit[]) =>
      receive(counted(source), limits),
    );
  });
  afterAll(() => t.close());
  beforeEach(() => {
    stagedBytes = 0;
  });

  async function* counted(source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      stagedBytes += chunk.byteLength;
      yield chunk;
    }
  }

  const post = (npub: string, authorization: string | null) =>
    postForm(
      t,
      path,
      [
        { name: 'npub', value: npub },
        { name: 'file', value: FILE, filename: 'notes.txt' },
      ],
      authorization,
    );
  const signed = (who: TestKey) => nip98Header(who, `http://localhost${path}`, 'POST');
  const stagingDir = () => readdir(join(t.config.dataRoot, '.drive-staging')).catch(() => [] as string[]);

  async function refusedUnstaged(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
    expect(stagedBytes).toBe(0);
    expect(await stagingDir()).toEqual([]);
  }

  it('stages the file of an authorised upload (the count sees it)', async () => {
    const res = await post(alice.npub, signed(alice));
    expect(res.statusCode).toBe(200);
    expect(stagedBytes).toBe(FILE.length);
  });

  it('refuses a NIP-98 header with a bad signature (401)', async () => {
    const event = JSON.parse(Buffer.from(signed(alice).slice(6), 'base64').toString()) as object;
    const forged = authorizationHeader({ ...event, content: 'changed after signing' });
    await refusedUnstaged(await post(alice.npub, forged), 401, 'AUTH_BAD_SIGNATURE');
  });

  it('refuses the npub of a registered key that never authenticated (401)', async () => {
    await refusedUnstaged(await post(alice.npub, null), 401, 'AUTH_NOT_FOUND');
  });

  it('refuses a valid signature of a key without a user directory (403)', async () => {
    const stranger = newKey();
    await refusedUnstaged(await post(stranger.npub, signed(stranger)), 403, 'NOT_REGISTERED');
  });

  it('refuses an npub that is not the signing key (403)', async () => {
    const bob = newKey();
    await refusedUnstaged(await post(bob.npub, signed(alice)), 403, 'NPUB_MISMATCH');
  });
});
