import { access, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Subject, type Subscription } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthServices, type AuthServices } from '../../src/auth/services.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createExclusive } from '../../src/cookies/scraper/markers.js';
import { createPayments, type ReactionOutcome } from '../../src/economy/payments/service.js';
import { UserStore } from '../../src/identity/user-store.js';
import { authStream } from '../../streams/auth.stream.js';
import { likeStream } from '../../streams/like.stream.js';
import type { StreamErrors } from '../../streams/each-event.js';
import { auth22242 } from '../helpers/relay-station.js';
import { keyFromSecret, newKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { failFiles, failLmdb, stopFailingFiles, watchProcess } from '../helpers/write-faults.js';
import { like } from './payment-harness.js';

vi.mock('node:fs/promises', async (real) =>
  (await import('../helpers/write-faults.js')).faultyFs(await real()),
);
vi.mock('lmdb', async (real) => (await import('../helpers/write-faults.js')).recordingLmdb(await real()));

const ADDRESS = '203.0.113.7';
// A valid Ğ1 wallet no local user has (the ORIGIN social-capital wallet).
const REMOTE_WALLET = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';

/**
 * The bot's streams and the periodic jobs with their disk failing under them (at the station's seams into
 * lmdb-js and node:fs/promises): nothing ends the process or the stream, the failure is logged, nothing is
 * taken as done that was not written, and the same work succeeds once the disk does.
 */
describe.each(['ENOSPC', 'EIO'] as const)('a write failing with %s', (fault) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let config: Config;
  let auth: AuthServices;
  let logs: { msg: string }[];
  let watch: ReturnType<typeof watchProcess>;
  const subscriptions: Subscription[] = [];
  let now = Date.now();
  const clock = { now: () => now };
  const logged = (msg: string) => waitFor(() => logs.some((line) => line.msg.startsWith(msg)));
  const stationDb = () => join(config.dataRoot, 'station');

  beforeAll(() => {
    watch = watchProcess();
  });
  afterAll(async () => {
    // lmdb-js may settle a failed commit's real error a moment later: time for it to go unhandled, if it did.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    watch.stop();
    expect(watch.seen).toEqual([]);
  });
  beforeEach(async () => {
    dir = await tempDir('write-faults-');
    config = await loadConfig({
      HOME: dir.path,
      DATA_ROOT: join(dir.path, 'game'),
      TMP_DIR: join(dir.path, 'tmp'),
      AUTH_LEGACY_RELAY_LOGIN: 'true',
    });
    logs = [];
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => (logs.push(JSON.parse(chunk.toString())), done()),
    });
    const logger = pino({ level: 'debug' }, sink);
    await mkdir(config.tmpDir, { recursive: true });
    auth = await createAuthServices({ config, clock, logger });
  });
  afterEach(async () => {
    stopFailingFiles();
    subscriptions.splice(0).forEach((subscription) => subscription.unsubscribe());
    await auth.close();
    await dir.cleanup();
  });

  it('kind 22242 on the stream: its challenge is consumed only by a write that holds', async () => {
    const key = newKey();
    const { challenge } = await auth.challenges.issue(key.hex, ADDRESS);
    const events = new Subject<ReturnType<typeof auth22242>>();
    const results: unknown[] = [];
    subscriptions.push(authStream(events, auth.observed).subscribe((result) => results.push(result)));
    const answer = auth22242(key, { tags: [['challenge', challenge]] });
    const restore = failLmdb(fault, stationDb());
    events.next(answer);
    await new Promise((resolve) => setTimeout(resolve, 200));
    restore();
    expect(results).toEqual([]);
    expect(auth.cache.lookup(key.hex, ADDRESS, 0)).toBeNull();
    events.next(answer);
    await waitFor(() => results.length === 1);
    expect(results[0]).toMatchObject({ result: { accepted: true } });
    // The claim is written behind the answer (src/auth/auth-cache.ts): on a busy machine it lands a moment later.
    await waitFor(() => auth.db.claims.get([key.hex, ADDRESS]) !== undefined);
    expect(auth.db.claims.get([key.hex, ADDRESS])).toMatchObject({ id: answer.id });
  });

  it('a login accepted while its write fails is served, and written by the next sweep', async () => {
    const key = newKey();
    const legacy = auth22242(key);
    const restore = failLmdb(fault, stationDb());
    expect(await auth.observed.ingest(legacy)).toEqual({ accepted: true });
    await logged('relay-observed login not persisted');
    restore();
    expect(auth.cache.lookup(key.hex, ADDRESS, 0)).toMatchObject({ id: legacy.id });
    expect(auth.db.claims.get([key.hex, '*'])).toBeUndefined();
    await auth.cache.prune(0);
    expect(auth.db.claims.get([key.hex, '*'])).toMatchObject({ id: legacy.id });
  });

  it('the periodic sweep of challenges and replay records: logged, done by the next one', async () => {
    await auth.challenges.issue(newKey().hex, ADDRESS);
    await auth.replay.claim('ab'.repeat(32), Math.floor(now / 1000) + 10);
    now += 600_000;
    const restore = failLmdb(fault, stationDb());
    auth.start();
    await logged('sweeping auth records failed');
    auth.stop();
    restore();
    expect(auth.db.challenges.getKeysCount()).toBe(1);
    auth.start();
    await waitFor(() => auth.db.challenges.getKeysCount() === 0 && auth.db.replay.getKeysCount() === 0);
    auth.stop();
  });

  it('a like: its Ẑen payment journaled once the disk takes it, once', async () => {
    const users = await UserStore.open(config.dataRoot, { uplanetName: config.uplanetName, watch: false });
    const liker = keyFromSecret((await users.create({ email: 'liker@example.org' })).keys.nostr.secretKey);
    const payees = {
      resolve: async (hex: string) => ({ hex, wallet: REMOTE_WALLET, source: 'profile' as const }),
    };
    const payments = await createPayments({ config, clock, users, payees });
    const events = new Subject<ReturnType<typeof like>>();
    const outcomes: ReactionOutcome[] = [];
    const errors: StreamErrors = {};
    subscriptions.push(likeStream(events, payments, { errors }).subscribe((o) => outcomes.push(o)));
    const queued: string[] = [];
    // The daily allowance, the record's open mark, the record: each write failing in turn.
    for (const [failures, part] of ['cap', 'open', 'records'].entries()) {
      const reaction = like(liker, newKey().hex);
      failFiles(fault, join(payments.journal.root, part));
      events.next(reaction);
      await waitFor(() => errors.likes === failures + 1);
      stopFailingFiles();
      expect(await payments.journal.read(reaction.id)).toBeNull();
      events.next(reaction);
      events.next(reaction);
      await waitFor(() => outcomes.length === 2 * failures + 2);
      expect(outcomes.slice(-2)).toEqual(['queued', 'duplicate']);
      expect(await payments.journal.read(reaction.id)).toMatchObject({ status: 'queued', amount_zen: 1 });
      queued.push(reaction.id);
    }
    expect((await payments.journal.openIds()).sort()).toEqual(queued.sort());
    users.close();
  });

  it("the scraper's once-a-day marker: none is left by a write that failed", async () => {
    const marker = join(config.tmpDir, 'marker');
    failFiles(fault, config.tmpDir);
    await expect(createExclusive(marker, 'ran\n')).rejects.toMatchObject({ code: fault });
    stopFailingFiles();
    await expect(access(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await createExclusive(marker, 'ran\n')).toBe(true);
    expect(await readdir(config.tmpDir)).toContain('marker');
  });
});
