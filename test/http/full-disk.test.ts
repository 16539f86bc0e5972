import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPayments, type ReactionOutcome } from '../../src/economy/payments/service.js';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { authStream } from '../../streams/auth.stream.js';
import type { StreamErrors } from '../../streams/each-event.js';
import { likeStream } from '../../streams/like.stream.js';
import { cookieFile, cookieLine } from '../cookies/fixtures.js';
import { postFile } from '../cookies/harness.js';
import { upload } from '../drive/http.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { authorizationHeader, newKey, nip98Header, signEvent, type TestKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { auth22242, register } from '../helpers/relay-station.js';
import { watchProcess } from '../helpers/write-faults.js';
import { RawClient } from '../relay/raw-client.js';
import { like } from '../streams/payment-harness.js';
import { canMountTmpfs } from '../helpers/tmpfs.js';

const REMOTE_WALLET = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';
const FULL = { detail: expect.stringContaining('disk is full'), code: 'INSUFFICIENT_STORAGE' };

/**
 * A station whose DATA_ROOT, TMP_DIR and relay store share one small tmpfs, filled up: every write path meets a
 * real ENOSPC (test/http/write-faults.test.ts adds EIO, path by path). Requests answer 507, the relay
 * `OK false`, the streams carry on, nothing ends the process; once there is room the same work succeeds.
 */
describe.skipIf(!canMountTmpfs())('a station on a full disk', () => {
  let mountPoint: string;
  let t: TestApp;
  let relay: EmbeddedRelay;
  let key: TestKey;
  let watch: ReturnType<typeof watchProcess>;
  const filler = () => join(mountPoint, 'filler');

  beforeAll(async () => {
    watch = watchProcess();
    mountPoint = mkdtempSync(join(tmpdir(), 'tmpfs-station-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountPoint]);
    const env = { DATA_ROOT: join(mountPoint, 'game'), TMP_DIR: join(mountPoint, 'tmp') };
    t = await buildTestApp({ env });
    key = await register(t, 'full@example.org');
    const store = await openLmdbEventStore({ path: join(mountPoint, 'relay') });
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0, store });
  });
  afterAll(async () => {
    watch?.stop();
    try {
      await relay?.close();
      await t?.close();
    } finally {
      execFileSync('umount', ['--lazy', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('answers 507 or OK false on every write path, stays up, and does it all once there is room', async () => {
    // lmdb-js logs a failed commit itself; the test checks what the station makes of it.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const issue = () => t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}` });
    const me = (authorization: string) => t.app.inject({ url: '/api/me', headers: { authorization } });
    const registration = () =>
      t.app.inject({ method: 'POST', url: '/g1nostr', payload: { email: 'late@example.org' } });
    const cookies = cookieFile([cookieLine('.youtube.com')]);
    const { challenge } = (await issue()).json();
    const inHeader = authorizationHeader(signEvent(key, { kind: 22242, tags: [['challenge', challenge]] }));
    const onRelay = auth22242(key, { tags: [['challenge', (await issue()).json().challenge]] });
    const nip98 = nip98Header(key, 'http://localhost/api/me', 'GET');
    const logins = new Subject<typeof onRelay>();
    const ingested: unknown[] = [];
    authStream(logins, t.deps.auth.observed).subscribe((result) => ingested.push(result));
    const payees = {
      resolve: async (hex: string) => ({ hex, wallet: REMOTE_WALLET, source: 'profile' as const }),
    };
    const payments = await createPayments({
      config: t.config,
      clock: t.deps.clock,
      users: t.deps.users,
      payees,
    });
    const likes = new Subject<ReturnType<typeof like>>();
    const outcomes: ReactionOutcome[] = [];
    const errors: StreamErrors = {};
    likeStream(likes, payments, { errors }).subscribe((outcome) => outcomes.push(outcome));
    const reaction = like(key, newKey().hex);
    const client = await RawClient.connect(relay.url);
    const note = signEvent(key, { kind: 1, content: 'written once there is room' });
    const usersRoot = join(t.config.dataRoot, 'nostr');
    const users = await readdir(usersRoot);

    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(filler(), Buffer.alloc(bavail * bsize));
    try {
      for (const refused of [await issue(), await me(inHeader), await me(nip98)]) {
        expect(refused.statusCode).toBe(507);
        expect(refused.json()).toEqual(FULL);
      }
      expect((await registration()).json()).toMatchObject(FULL);
      expect(await readdir(usersRoot)).toEqual(users);
      expect((await postFile(t, key, cookies)).json()).toEqual(FULL);
      expect((await upload(t, key, 'late.txt', 'no room')).json()).toEqual(FULL);
      client.send('EVENT', note);
      expect(await client.ok(note.id)).toEqual([
        'OK',
        note.id,
        false,
        'error: the relay has no disk space left',
      ]);
      logins.next(onRelay);
      likes.next(reaction);
      await waitFor(() => errors.likes === 1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(ingested).toEqual([]);
      expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      rmSync(filler());
    }

    expect((await issue()).statusCode).toBe(200);
    expect((await me(inHeader)).json()).toMatchObject({ auth_method: 'challenge' });
    expect((await me(nip98)).json()).toMatchObject({ auth_method: 'nip98' });
    expect((await registration()).statusCode).toBe(200);
    expect((await postFile(t, key, cookies)).statusCode).toBe(200);
    expect((await upload(t, key, 'late.txt', 'room again')).statusCode).toBe(200);
    const seen = client.frames.length;
    client.send('EVENT', note);
    expect(await client.next((frame) => frame[0] === 'OK', seen)).toEqual(['OK', note.id, true, '']);
    logins.next(onRelay);
    likes.next(reaction);
    await waitFor(() => ingested.length === 1 && outcomes.length === 1);
    expect(ingested).toEqual([{ event: onRelay, result: { accepted: true } }]);
    expect(outcomes).toEqual(['queued']);
    client.close();
    quiet.mockRestore();
    expect(watch.seen).toEqual([]);
  });
});
