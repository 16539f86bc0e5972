import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import {
  loginFrom,
  probeHealth,
  registerUser,
  sign,
  startAttackedStation,
  stationLinkLive,
  Stranger,
  type AttackedStation,
} from './relay-attack-station.js';

const STORED = 400;
const CONTENT = 100 * 1024;
const READERS_PER_ADDRESS = 10;
const ADDRESSES = ['127.0.50.1', '127.0.50.2', '127.0.50.3', '127.0.50.4'];
const REQS_PER_READER = 3;
const GROWTH_LIMIT_MB = 300;
/** Anonymous memory over the baseline once the readers are gone. */
const GIVEN_BACK_MB = 100;
/** How long the readers hold on before they go (the relay drops a reader stalled for 30 s on its own). */
const OBSERVED_MS = 10_000;
const DROPPED = 'relay client too slow: connection dropped';
const LINK_LOST = 'relay connection lost';

/**
 * Issue 43: clients that ask for much and never read must not make the station buffer for them. 40 readers
 * (four addresses) each ask three times for 400 notes of 100 KiB (120 answers of 40 MB: 4.8 GB if the relay
 * queued everything) and never read a byte.
 */
const eventsRead = async (station: AttackedStation) =>
  (await station.health()).relay_store?.answer_events_read ?? NaN;

describe('clients that never read', () => {
  let station: AttackedStation;
  const readers: Stranger[] = [];
  beforeAll(async () => {
    station = await startAttackedStation();
    // The notes, from 127.0.0.1 (TRUSTED_IPS: no byte allowance), over four connections.
    const author = newKey();
    const writers = await Promise.all(
      [1, 2, 3, 4].map(() => Stranger.connect(station.relayUrl, '127.0.0.1')),
    );
    const at = Math.floor(Date.now() / 1000) - STORED;
    const notes = Array.from({ length: STORED }, (_, i) =>
      sign(author, { kind: 1, created_at: at + i, content: `${i} `.padEnd(CONTENT, 'n') }),
    );
    notes.forEach((note, i) => writers[i % writers.length]!.send('EVENT', note));
    const stored = await Promise.all(
      notes.map((note, i) => writers[i % writers.length]!.ok(note.id, 60_000)),
    );
    for (const writer of writers) writer.close();
    if (stored.some((answer) => answer[2] !== true)) throw new Error('the notes were not all stored');
    await waitFor(async () => (await station.health()).relay_store?.events === STORED);
  });
  afterAll(async () => {
    for (const reader of readers.splice(0)) reader.close();
    await station?.stop();
  });

  it('one connection holding 20 answers it does not read leaves the relay up', async () => {
    const health = probeHealth(station, 250);
    const reader = await Stranger.connect(station.relayUrl, '127.0.49.1');
    readers.push(reader);
    (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    // 20: the subscriptions a connection may hold.
    for (let r = 0; r < 20; r++) reader.send('REQ', `one-${r}`, { kinds: [1], limit: 500 });
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const probes = await health.stop();
    for (const held of readers.splice(0)) held.close();
    const threadFailures = station
      .logged('embedded relay thread failed')
      .map((entry) => String((entry.err as { message?: string } | undefined)?.message));
    console.info(
      `one slow reader, 20 REQs: relay thread failures ${threadFailures.length ? threadFailures.join('; ') : 'none'}; ` +
        `station subscription not live in ${probes.filter((probe) => !probe.live).length} of ${probes.length} /health probes`,
    );
    expect(threadFailures).toEqual([]);
    expect(probes.filter((probe) => probe.status !== 200 || !probe.live)).toEqual([]);
  });

  it('cost the station a bounded amount of memory, given back once they are gone', async () => {
    for (const held of readers.splice(0)) held.close();
    // The station is itself again (a previous attack may have taken its relay down).
    await waitFor(async () => stationLinkLive(await station.health()), 60_000);
    const failuresBefore = station.logged('embedded relay thread failed').length;
    const droppedBefore = station.logged(DROPPED).length;
    const linkLostBefore = station.logged(LINK_LOST).length;
    const readBefore = await eventsRead(station);
    const baseline = await station.memory();
    let peak = baseline;
    const sampler = setInterval(() => {
      void station.memory().then((reading) => {
        if (reading.rssMb > peak.rssMb) peak = reading;
      });
    }, 100);
    const health = probeHealth(station, 250);

    try {
      for (const address of ADDRESSES)
        for (let i = 0; i < READERS_PER_ADDRESS; i++) {
          const reader = await Stranger.connect(station.relayUrl, address);
          // From now on nothing is read: what the relay sends piles up in its send queue.
          (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();
          readers.push(reader);
        }
      for (const [n, reader] of readers.entries())
        for (let r = 0; r < REQS_PER_READER; r++)
          reader.send('REQ', `all-${n}-${r}`, { kinds: [1], limit: 500 });
      // The readers hold on: the station is watched meanwhile.
      await new Promise((resolve) => setTimeout(resolve, OBSERVED_MS));
    } finally {
      clearInterval(sampler);
    }
    const dropped = station.logged(DROPPED).length - droppedBefore;
    const threadFailures = station
      .logged('embedded relay thread failed')
      .slice(failuresBefore)
      .map((entry) => String((entry.err as { message?: string } | undefined)?.message));

    // Cut while their answers are being read: what is read for them stops at the next page. Before, the
    // answers were read to their end for nobody, in one stretch that held the relay thread about 20 s: the
    // station's link missed its pong and was dropped, and new connections waited.
    const readAtCut = await eventsRead(station);
    for (const reader of readers.splice(0)) reader.close();
    const user = await registerUser(station, 'slow-readers@example.org');
    const login = await loginFrom(station, user, '127.0.51.1');
    let after = await station.memory();
    await waitFor(async () => {
      after = await station.memory();
      return after.anonymousMb - baseline.anonymousMb < GIVEN_BACK_MB;
    }, 30_000).catch(() => undefined);
    const probes = await health.stop();
    const readAfterCut = (await eventsRead(station)) - readAtCut;
    const linkLost = station.logged(LINK_LOST).slice(linkLostBefore);
    console.info(
      `slow readers: RSS baseline ${baseline.rssMb.toFixed(0)} MB (anonymous ${baseline.anonymousMb.toFixed(0)}), ` +
        `peak ${peak.rssMb.toFixed(0)} MB (anonymous ${peak.anonymousMb.toFixed(0)}): growth ${(peak.rssMb - baseline.rssMb).toFixed(0)} MB; ` +
        `after the readers are gone ${after.rssMb.toFixed(0)} MB (anonymous ${after.anonymousMb.toFixed(0)}); ` +
        `${dropped} of ${READERS_PER_ADDRESS * ADDRESSES.length} readers dropped as too slow in ${OBSERVED_MS / 1000} s; ` +
        `relay thread failures: ${threadFailures.length ? threadFailures.join('; ') : 'none'}; ` +
        `/health probes ${probes.length}, not 200 ${probes.filter((probe) => probe.status !== 200).length}, ` +
        `station subscription not live ${probes.filter((probe) => !probe.live).length}; ` +
        `stored events read for them ${readAtCut - readBefore} while they held on, ${readAfterCut} after the cut; ` +
        `station link lost ${linkLost.length} times; login right after the cut: ${JSON.stringify(login)}`,
    );

    expect(peak.rssMb - baseline.rssMb).toBeLessThan(GROWTH_LIMIT_MB);
    // The relay thread never ran out of heap (the station would lose its subscription until it is back).
    expect(threadFailures).toEqual([]);
    expect(probes.filter((probe) => probe.status !== 200 || !probe.live)).toEqual([]);
    // What the readers cost is given back once they are gone.
    expect(after.anonymousMb - baseline.anonymousMb).toBeLessThan(GIVEN_BACK_MB);

    // What was being read for them stopped at the next page (the first page of an answer is 10 events); read to
    // their end, the answers would have been 48,000 events.
    expect(readAfterCut).toBeLessThanOrEqual(READERS_PER_ADDRESS * ADDRESSES.length * REQS_PER_READER * 10);
    // The station's link was never dropped (a missed pong), and a stranger's login got through (20 s hang guard).
    expect(linkLost).toEqual([]);
    expect(login, JSON.stringify(login)).toMatchObject({ published: true, ok: true });
  }, 150_000);
});
