import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import {
  addUser,
  like,
  readLog,
  startInstance,
  waitForStatus,
  writeRecorder,
  type Instance,
} from '../streams/payment-harness.js';

/** Likes are fresh: a reaction signed long ago and republished here is not paid. */
describe('likes older than LIKE_MAX_AGE are not paid', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  let station: Instance | undefined;
  let alice: Awaited<ReturnType<typeof addUser>>;
  let bob: Awaited<ReturnType<typeof addUser>>;

  beforeEach(async () => {
    dir = await tempDir('stale-likes-');
    relay = await startTestRelay();
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    alice = await addUser(users, 'alice@example.org');
    bob = await addUser(users, 'bob@example.org');
    users.close();
  });

  afterEach(async () => {
    await station?.stop();
    await relay.close();
    await dir.cleanup();
  });

  async function start(env: Record<string, string> = {}) {
    const recorder = await writeRecorder(join(dir.path, 'bin'));
    station = await startInstance({
      root: dir.path,
      relayUrl: relay.url,
      env: { PAYMENT_COMMAND: recorder, ...env },
    });
    return station;
  }

  const now = () => Math.floor(Date.now() / 1000);

  it('journals and pays a fresh like, not one signed hours ago (default 3600 s)', async () => {
    const s = await start();
    const old = like(alice.key, bob.key.hex, { created_at: now() - 3 * 3600 });
    const fresh = like(alice.key, bob.key.hex);
    await publish(relay.url, old);
    await publish(relay.url, fresh);
    await waitForStatus(s, fresh.id, 'sent');
    await waitFor(() => s.outcome('stale') === 1);
    expect(await s.payments.journal.read(old.id)).toBeNull();
    expect((await s.records()).map((r) => r.id)).toEqual([fresh.id]);
    const transfers = await readLog(join(dir.path, 'bin'), 'transfers.log');
    expect(transfers.map((argv) => argv.at(-1)!.slice(-64))).toEqual([fresh.id]);
    expect(s.logs).toContainEqual(
      expect.objectContaining({ level: 30, reaction: old.id, msg: expect.stringContaining('LIKE_MAX_AGE') }),
    );
  });

  it('follows LIKE_MAX_AGE', async () => {
    const s = await start({ LIKE_MAX_AGE: String(6 * 3600) });
    const older = like(alice.key, bob.key.hex, { created_at: now() - 3 * 3600 });
    await publish(relay.url, older);
    await waitForStatus(s, older.id, 'sent');
    expect(s.outcome('stale')).toBe(0);
  });
});
