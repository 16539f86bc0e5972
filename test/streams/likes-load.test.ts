import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import {
  addUser,
  countRecords,
  like,
  publishAll,
  readLog,
  startInstance,
  writeRecorder,
  type Instance,
} from './payment-harness.js';

describe('likes under load and with several workers', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  let alice: Awaited<ReturnType<typeof addUser>>;
  let bob: Awaited<ReturnType<typeof addUser>>;
  let carol: Awaited<ReturnType<typeof addUser>>;
  const instances: Instance[] = [];
  let app: TestApp | null = null;
  const bin = () => join(dir.path, 'bin');

  beforeEach(async () => {
    dir = await tempDir('likes-load-');
    relay = await startTestRelay();
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    alice = await addUser(users, 'alice@example.org');
    bob = await addUser(users, 'bob@example.org');
    carol = await addUser(users, 'carol@example.org');
    users.close();
  });

  afterEach(async () => {
    await writeFile(join(bin(), 'release'), '').catch(() => undefined);
    await app?.close();
    app = null;
    for (const instance of instances.splice(0)) await instance.stop();
    await relay.close();
    await dir.cleanup();
  });

  async function start(command: string, env: Record<string, string> = {}): Promise<Instance> {
    const instance = await startInstance({
      root: dir.path,
      relayUrl: relay.url,
      env: { PAYMENT_COMMAND: command, PAYMENT_DAILY_CAP: '1000', ...env },
    });
    instances.push(instance);
    return instance;
  }

  it('journals 200 likes and keeps the HTTP API answering while a stuck command holds every slot', async () => {
    const station = await start(await writeRecorder(bin(), { gate: true }), { PAYMENT_CONCURRENCY: '4' });
    app = await buildTestApp({ overrides: { view: station.view } });
    const base = await app.app.listen({ port: 0, host: '127.0.0.1' });

    const reactions = Array.from({ length: 200 }, (_, i) => like(i % 2 ? alice.key : carol.key, bob.key.hex));
    await publishAll(relay.url, reactions);

    // Every reaction is decided and journaled although no transfer has finished: the subscription never waits.
    await waitFor(async () => (await countRecords(station)) === 200, 60_000);
    await waitFor(async () => (await readLog(bin(), 'calls.log')).length === 4);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => fetch(`${base}${i % 2 ? '/health' : '/api/view/stats'}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    expect(station.payments.executor.stats.sent).toBe(0);
    // The bound on concurrent transfers holds: exactly PAYMENT_CONCURRENCY commands started.
    expect(await readLog(bin(), 'calls.log')).toHaveLength(4);
    expect(station.payments.executor.pending).toBe(200);

    await writeFile(join(bin(), 'release'), '');
    await waitFor(() => station.payments.executor.stats.sent === 200, 60_000);
    const paid = (await readLog(bin(), 'transfers.log')).map((argv) => argv[4]!.slice(-64));
    expect(new Set(paid)).toEqual(new Set(reactions.map((event) => event.id)));
    expect(paid).toHaveLength(200);
  }, 180_000); // generous limits: the machine may be shared; nothing here measures time

  it('pays each reaction once when two workers share one journal', async () => {
    const command = await writeRecorder(bin());
    const [first, second] = [await start(command), await start(command)];
    const reactions = Array.from({ length: 60 }, (_, i) => like(i % 2 ? alice.key : carol.key, bob.key.hex));
    await publishAll(relay.url, reactions);

    const queued = () => first.outcome('queued') + second.outcome('queued');
    await waitFor(() => queued() === reactions.length, 60_000);
    await waitFor(async () => (await readLog(bin(), 'transfers.log')).length === reactions.length, 60_000);
    // Both workers see every reaction; exactly one of them journals each, the other finds it taken.
    const duplicates = () => first.outcome('duplicate') + second.outcome('duplicate');
    await waitFor(() => duplicates() === reactions.length, 60_000);
    expect(queued()).toBe(reactions.length);

    const paid = (await readLog(bin(), 'transfers.log')).map((argv) => argv[4]!.slice(-64));
    expect(paid.sort()).toEqual(reactions.map((event) => event.id).sort());
    expect(await readLog(bin(), 'calls.log')).toHaveLength(reactions.length);
  }, 180_000); // generous limits: the machine may be shared; nothing here measures time
});
