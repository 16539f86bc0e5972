import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cookieFile, cookieLine } from '../cookies/fixtures.js';
import { postFile } from '../cookies/harness.js';
import { upload } from '../drive/http.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { authorizationHeader, nip98Header, signEvent, type TestKey } from '../helpers/nostr.js';
import { register } from '../helpers/relay-station.js';
import {
  failFiles,
  failLmdb,
  stopFailingFiles,
  watchProcess,
  type FaultCode,
} from '../helpers/write-faults.js';

vi.mock('node:fs/promises', async (real) =>
  (await import('../helpers/write-faults.js')).faultyFs(await real()),
);
vi.mock('lmdb', async (real) => (await import('../helpers/write-faults.js')).recordingLmdb(await real()));

/** What each fault must be answered with (docs/api-contract.md §6). */
const ANSWERS: Record<FaultCode, { status: number; code: string }> = {
  ENOSPC: { status: 507, code: 'INSUFFICIENT_STORAGE' },
  EIO: { status: 503, code: 'STORAGE_ERROR' },
};

/**
 * Every HTTP write path with its disk failing under it, at the station's own seams (its calls into lmdb-js and
 * node:fs/promises; test/http/full-disk.test.ts fills a real disk): the answer is the fault's `{detail, code}`,
 * the process keeps running (no unhandled rejection), and once the fault is gone the same request succeeds.
 */
describe.each(['ENOSPC', 'EIO'] as const)('a write failing with %s', (fault) => {
  let t: TestApp;
  let key: TestKey;
  let watch: ReturnType<typeof watchProcess>;
  const stationDb = () => join(t.config.dataRoot, 'station');
  const driveIndex = () => join(t.config.dataRoot, 'ipfs-store');
  /** `{detail, code}` (registration adds `error`, the code again, for UPassport's pages). */
  const expectRefused = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(ANSWERS[fault].status);
    expect(res.json()).toMatchObject({
      detail: expect.stringMatching(/station’s (disk|storage)/),
      code: ANSWERS[fault].code,
    });
  };
  const me = (authorization: string) => t.app.inject({ url: '/api/me', headers: { authorization } });
  /** Runs `request` under a fault of the station's LMDB environments under `under`, then without. */
  async function lmdbFault<T>(under: string, request: () => Promise<T>): Promise<T> {
    const restore = failLmdb(fault, under);
    try {
      return await request();
    } finally {
      restore();
    }
  }
  async function fileFault<T>(request: () => Promise<T>): Promise<T> {
    failFiles(fault, t.config.dataRoot);
    try {
      return await request();
    } finally {
      stopFailingFiles();
    }
  }

  beforeAll(async () => {
    watch = watchProcess();
    t = await buildTestApp();
    key = await register(t, 'faults@example.org');
  });
  afterAll(async () => {
    // lmdb-js may settle a failed commit's real error a moment later: time for it to go unhandled, if it did.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    watch.stop();
    await t?.close();
    expect(watch.seen).toEqual([]);
  });

  it('GET /api/nip42/challenge (challenge issued)', async () => {
    const ask = () => t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}` });
    expectRefused(await lmdbFault(stationDb(), ask));
    expect((await ask()).statusCode).toBe(200);
  });

  it('a signed challenge in a header (challenge consumed): kept for the retry', async () => {
    const { challenge } = (await t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}` })).json();
    const header = authorizationHeader(signEvent(key, { kind: 22242, tags: [['challenge', challenge]] }));
    expectRefused(await lmdbFault(stationDb(), () => me(header)));
    expect((await me(header)).json()).toMatchObject({ auth_method: 'challenge', proof: true });
    expect((await me(header)).statusCode).toBe(401);
  });

  it('a NIP-98 header (its id recorded as used): accepted again once recorded', async () => {
    const header = nip98Header(key, 'http://localhost/api/me', 'GET');
    expectRefused(await lmdbFault(stationDb(), () => me(header)));
    expect((await me(header)).json()).toMatchObject({ auth_method: 'nip98' });
    expect((await me(header)).json()).toMatchObject({ code: 'AUTH_REPLAYED' });
  });

  it('POST /g1nostr (a user directory): nothing left behind', async () => {
    const email = `new-${fault.toLowerCase()}@example.org`;
    const registration = () => t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email } });
    const usersRoot = join(t.config.dataRoot, 'nostr');
    const before = await readdir(usersRoot);
    expectRefused(await fileFault(registration));
    expect(await readdir(usersRoot)).toEqual(before);
    const created = await registration();
    expect(created.statusCode).toBe(200);
    expect((await readFile(join(usersRoot, email, 'HEX'), 'utf8')).trim()).toBe(created.json().hex);
  });

  it('POST /api/fileupload (a cookie file)', async () => {
    const cookies = cookieFile([cookieLine('.youtube.com', { value: fault })]);
    expectRefused(await fileFault(() => postFile(t, key, cookies)));
    const target = join(t.deps.users.dirFor('faults@example.org'), '.youtube.com.cookie');
    await expect(readFile(target, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await postFile(t, key, cookies)).statusCode).toBe(200);
    expect(await readFile(target, 'utf8')).toBe(cookies);
  });

  it('POST /api/upload (the drive): its files, then its index', async () => {
    expectRefused(await fileFault(() => upload(t, key, `a-${fault}.txt`, 'staged on a failing disk')));
    expectRefused(await lmdbFault(driveIndex(), () => upload(t, key, `b-${fault}.txt`, 'a failing index')));
    const user = (await t.deps.users.findByEmail('faults@example.org'))!;
    const listed = async () => (await t.app.driveServices.drive.list(user)).files.map((f) => f.path);
    expect((await listed()).filter((path) => path.includes(fault))).toEqual([]);
    expect((await upload(t, key, `c-${fault}.txt`, 'room again')).statusCode).toBe(200);
    expect(await listed()).toContain(`Documents/c-${fault}.txt`);
  });
});
