import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
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
} from './payment-harness.js';

const DISTRIBUTION = 'g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5';
// A valid Ğ1 wallet that no local user has (the ORIGIN social-capital wallet).
const REMOTE_WALLET = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';

describe('likes → 1 Ẑen on a loopback relay', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  let recorder: string;
  let alice: Awaited<ReturnType<typeof addUser>>;
  let bob: Awaited<ReturnType<typeof addUser>>;
  const instances: Instance[] = [];

  async function start(env: Record<string, string> = {}): Promise<Instance> {
    const instance = await startInstance({
      root: dir.path,
      relayUrl: relay.url,
      env: { PAYMENT_COMMAND: recorder, ...env },
    });
    instances.push(instance);
    return instance;
  }

  beforeEach(async () => {
    dir = await tempDir('likes-');
    relay = await startTestRelay();
    recorder = await writeRecorder(join(dir.path, 'bin'));
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    alice = await addUser(users, 'alice@example.org');
    bob = await addUser(users, 'bob@example.org');
    users.close();
  });

  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.stop();
    await relay.close();
    await dir.cleanup();
  });

  const dunikey = (email: string) => join(dir.path, 'game', 'nostr', email, '.secret.dunikey');

  it('pays one like once, with the exact amount, wallet and comment', async () => {
    const station = await start();
    const reaction = like(alice.key, bob.key.hex);
    await publish(relay.url, reaction);
    const record = await waitForStatus(station, reaction.id, 'sent');
    expect(await readLog(join(dir.path, 'bin'), 'transfers.log')).toEqual([
      [
        dunikey('alice@example.org'),
        '0.1',
        '10',
        bob.g1pub,
        `UPLANET:${DISTRIBUTION.slice(0, 8)}:alice@example.org:LIKE:1Z:${reaction.id}`,
      ],
    ]);
    expect(record).toMatchObject({
      attempts: 1,
      payee: { source: 'local' },
      last_output: 'transfer accepted',
    });
  });

  it('pays a reaction delivered twice, then again after a restart, only once', async () => {
    let station = await start();
    const reaction = like(alice.key, bob.key.hex);
    await publish(relay.url, reaction);
    await waitForStatus(station, reaction.id, 'sent');
    // A second delivery reaches the journal (the relay client's own de-duplication is bypassed here).
    expect(
      await Promise.all([station.payments.onReaction(reaction), station.payments.onReaction(reaction)]),
    ).toEqual(['duplicate', 'duplicate']);
    await station.stop();
    instances.length = 0;
    // Restart: a fresh process subscribes again and the relay sends the stored reaction once more.
    station = await start();
    await waitFor(() => station.outcome('duplicate') === 1);
    expect(await readLog(join(dir.path, 'bin'), 'calls.log')).toHaveLength(1);
  });

  it('+5 pays 0.5 Ğ1; 👎, a self-like and a reaction without e tag pay nothing', async () => {
    const station = await start();
    const plusFive = like(alice.key, bob.key.hex, { content: '+5' });
    const ignored = [
      like(alice.key, bob.key.hex, { content: '👎' }),
      like(alice.key, alice.key.hex),
      like(alice.key, bob.key.hex, { tags: [['p', bob.key.hex]] }),
    ];
    for (const event of [...ignored, plusFive]) await publish(relay.url, event);
    await waitForStatus(station, plusFive.id, 'sent');
    await waitFor(
      () => station.outcome('NOT_A_LIKE') + station.outcome('SELF_LIKE') + station.outcome('NO_E_TAG') === 3,
    );
    const transfers = await readLog(join(dir.path, 'bin'), 'transfers.log');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.slice(1, 3)).toEqual(['0.5', '50']);
    expect(transfers[0]?.[4]).toMatch(/:LIKE:5Z:/);
    for (const event of ignored) expect(await station.payments.journal.has(event.id)).toBe(false);
  });

  it('does not pay an author without a known wallet, and says so in the log', async () => {
    const station = await start();
    const stranger = newKey();
    const reaction = like(alice.key, stranger.hex);
    await publish(relay.url, reaction);
    await waitFor(() => station.outcome('unknown-payee') === 1);
    expect(await station.payments.journal.has(reaction.id)).toBe(false);
    expect(await readLog(join(dir.path, 'bin'), 'calls.log')).toEqual([]);
    expect(station.logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        reaction: reaction.id,
        msg: expect.stringContaining('no known Ğ1 wallet'),
      }),
    );
  });

  it("pays a remote author's wallet named by its kind-0 profile (field or i tag)", async () => {
    const station = await start();
    const byField = newKey();
    const byTag = newKey();
    await publish(
      relay.url,
      signEvent(byField, { kind: 0, content: JSON.stringify({ name: 'f', g1pub: REMOTE_WALLET }) }),
    );
    await publish(
      relay.url,
      signEvent(byTag, { kind: 0, content: '{"name":"t"}', tags: [['i', `g1v2:${alice.g1pub}`, '']] }),
    );
    await waitFor(() => station.view.walletOf(byTag.hex) !== null);
    const first = like(bob.key, byField.hex);
    const second = like(bob.key, byTag.hex);
    await publish(relay.url, first);
    await publish(relay.url, second);
    expect((await waitForStatus(station, first.id, 'sent')).payee).toEqual({
      hex: byField.hex,
      wallet: REMOTE_WALLET,
      source: 'profile',
    });
    expect((await waitForStatus(station, second.id, 'sent')).payee.wallet).toBe(alice.g1pub);
  });

  it('retries a command that fails, and pays once', async () => {
    recorder = await writeRecorder(join(dir.path, 'bin'), { failFirst: true });
    const station = await start();
    const reaction = like(alice.key, bob.key.hex);
    await publish(relay.url, reaction);
    const record = await waitForStatus(station, reaction.id, 'sent');
    expect(await readLog(join(dir.path, 'bin'), 'calls.log')).toHaveLength(2);
    expect(await readLog(join(dir.path, 'bin'), 'transfers.log')).toHaveLength(1);
    expect(record.attempts).toBe(2);
    expect(record.history.map((entry) => entry.status)).toEqual([
      'queued',
      'sending',
      'queued',
      'sending',
      'sent',
    ]);
    expect(record.history[2]?.note).toBe('exit code 3');
  });

  it('leaves likes queued and visible when PAYMENT_COMMAND is unset', async () => {
    const station = await start({ PAYMENT_COMMAND: '' });
    const reaction = like(alice.key, bob.key.hex);
    await publish(relay.url, reaction);
    await waitFor(() => station.outcome('queued') === 1);
    expect((await station.payments.journal.read(reaction.id))?.status).toBe('queued');
    expect(station.payments.executor.stats.attempts).toBe(0);
  });

  it("stops at the payer's daily cap", async () => {
    const station = await start({ PAYMENT_DAILY_CAP: '6' });
    const reactions = [
      like(alice.key, bob.key.hex, { content: '+5' }),
      like(alice.key, bob.key.hex, { content: '+2' }),
    ];
    for (const event of reactions) await publish(relay.url, event);
    await waitFor(() => station.outcome('queued') + station.outcome('capped') === 2);
    expect(station.outcome('capped')).toBe(1);
    const statuses = await Promise.all(
      reactions.map(async (event) => (await station.payments.journal.read(event.id))?.status),
    );
    expect(statuses.filter((status) => status === 'capped')).toHaveLength(1);
    expect(statuses.filter((status) => status !== 'capped')).toEqual([
      expect.stringMatching(/queued|sending|sent/),
    ]);
  });
});
