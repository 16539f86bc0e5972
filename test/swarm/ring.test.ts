import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/service-process.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { publishAll } from '../streams/payment-harness.js';
import { health, startTestStation, stopTestStation, storedAt, type TestStation } from './stations.js';

describe('three stations in a ring (A→B, B→C, C→A)', () => {
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  const stations: TestStation[] = [];

  beforeAll(async () => {
    const relays = await Promise.all([0, 1, 2].map(async () => `ws://127.0.0.1:${await freePort()}`));
    for (const i of [0, 1, 2]) dirs.push(await tempDir(`swarm-ring-${i}-`));
    // Started together: each one's sister may answer a moment after it starts (its sync retries).
    const started = await Promise.all(
      [0, 1, 2].map((i) =>
        startTestStation(dirs[i]!.path, { RELAY_URL: relays[i]!, SWARM_RELAYS: relays[(i + 1) % 3]! }),
      ),
    );
    stations.push(...started);
  });
  afterAll(async () => {
    await Promise.all(stations.map((station) => stopTestStation(station)));
    for (const dir of dirs) await dir.cleanup();
  });

  it('stores each event once everywhere, each received from the sister a bounded number of times', async () => {
    // Each station's sister answers before anything is published: the live paths carry it all.
    await waitFor(async () => {
      const states = await Promise.all(stations.map(async (station) => (await health(station.url)).swarm[0]));
      return states.every((state) => state?.status === 'connected' && state.last_sync_at !== null);
    });
    const author = newKey();
    const published = stations.map((_, i) =>
      Array.from({ length: 10 }, (_, j) => signEvent(author, { kind: 1, content: `station ${i} note ${j}` })),
    );
    await Promise.all(stations.map((station, i) => publishAll(station.relayUrl, published[i]!)));
    const all = published.flat();
    for (const station of stations)
      await waitFor(async () => (await storedAt(station, { authors: [author.hex] })).length >= all.length);
    for (const station of stations) {
      const stored = (await storedAt(station, { authors: [author.hex] })).map((event) => event.id);
      expect(stored).toHaveLength(all.length);
      expect(new Set(stored)).toEqual(new Set(all.map((event) => event.id)));
    }
    // Let any echo settle, then count: a live copy each way and a fetched copy at most, never a loop.
    const received = async () =>
      Promise.all(stations.map(async (station) => (await health(station.url)).swarm[0]!.received));
    let before = await received();
    await waitFor(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await received();
      const settled = now.every((count, i) => count === before[i]);
      before = now;
      return settled;
    });
    for (const count of before) expect(count).toBeLessThanOrEqual(2 * all.length);
  });
});
