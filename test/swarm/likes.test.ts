import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import { freePort } from '../e2e/service-process.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { addUser, like, publishAll, readLog, writeRecorder } from '../streams/payment-harness.js';
import { health, startTestStation, stopTestStation, storedAt, type TestStation } from './stations.js';

describe('a like in a swarm of two stations', () => {
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  let stations: TestStation[] = [];
  let start: () => Promise<TestStation[]>;
  let bin: string;

  beforeAll(async () => {
    dirs.push(
      await tempDir('swarm-like-a-'),
      await tempDir('swarm-like-b-'),
      await tempDir('swarm-like-bin-'),
    );
    bin = dirs[2]!.path;
    // One recorder for both stations: its log counts the transfers of the whole swarm.
    const command = await writeRecorder(bin);
    const relays = await Promise.all([0, 1].map(async () => `ws://127.0.0.1:${await freePort()}`));
    start = async () =>
      Promise.all(
        [0, 1].map((i) =>
          startTestStation(dirs[i]!.path, {
            RELAY_URL: relays[i]!,
            SWARM_RELAYS: relays[1 - i]!,
            PAYMENT_COMMAND: command,
          }),
        ),
      );
  });
  afterAll(async () => {
    await Promise.all(stations.map((station) => stopTestStation(station)));
    for (const dir of dirs) await dir.cleanup();
  });

  const synced = async () => {
    const states = await Promise.all(stations.map(async (station) => (await health(station.url)).swarm[0]));
    return states.every((state) => state?.status === 'connected' && state.last_sync_at !== null);
  };
  const paid = async () => (await readLog(bin, 'transfers.log')).map((argv) => argv[4]!.slice(-64));

  it("is paid once, by the liker's station, also after both restart", async () => {
    const users = await UserStore.open(join(dirs[0]!.path, '.zen', 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    const alice = await addUser(users, 'alice@example.org');
    const bob = await addUser(users, 'bob@example.org');
    users.close();
    stations = await start();
    await waitFor(synced);

    const reaction = like(alice.key, bob.key.hex);
    await publishAll(stations[0]!.relayUrl, [reaction]);
    await waitFor(async () => (await storedAt(stations[1]!, { ids: [reaction.id] })).length === 1);
    await waitFor(async () => (await paid()).length >= 1);

    await Promise.all(stations.map((station) => stopTestStation(station)));
    stations = await start();
    await waitFor(synced);
    // A later like, published at the second station this time (whose users do not include alice: it leaves
    // the like, 'liker-not-local'), reaches the first through the swarm and is paid there.
    const later = like(alice.key, bob.key.hex);
    await publishAll(stations[1]!.relayUrl, [later]);
    await waitFor(async () => (await paid()).length >= 2);
    await waitFor(async () => (await storedAt(stations[1]!, { ids: [later.id] })).length === 1);
    expect((await paid()).sort()).toEqual([reaction.id, later.id].sort());
    expect(await readLog(bin, 'calls.log')).toHaveLength(2);
  });
});
