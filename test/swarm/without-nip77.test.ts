import { matchFilters, type NostrEvent } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { scriptedRelay, type ScriptedRelay } from '../streams/misbehaving-relays.js';
import { health, startTestStation, stopTestStation, storedAt, type TestStation } from './stations.js';

const now = () => Math.floor(Date.now() / 1000);

describe('a sister relay without NIP-77', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sister: ScriptedRelay;
  let station: TestStation;
  const author = newKey();
  const stored: NostrEvent[] = Array.from({ length: 5 }, (_, i) =>
    signEvent(author, { kind: 1, content: `old ${i}`, created_at: now() - 60 + i }),
  );

  beforeAll(async () => {
    dir = await tempDir('swarm-req-');
    // Answers NEG-OPEN with a NOTICE, as a relay that does not know the verb does; REQ and EVENT as usual.
    sister = await scriptedRelay({
      onMessage: (connection, frame) => {
        if (frame[0] === 'NEG-OPEN') connection.send('NOTICE', 'ERROR: unknown cmd NEG-OPEN');
        if (frame[0] === 'EVENT') {
          const event = frame[1] as NostrEvent;
          if (!stored.some((known) => known.id === event.id)) stored.push(event);
          connection.send('OK', event.id, true, '');
        }
      },
      onReq: (connection, subscription, filters) => {
        for (const event of stored)
          if (matchFilters(filters, event)) connection.send('EVENT', subscription, event);
        connection.send('EOSE', subscription);
      },
    });
    station = await startTestStation(dir.path, { SWARM_RELAYS: sister.url });
  });
  afterAll(async () => {
    if (station) await stopTestStation(station);
    await sister?.close();
    await dir?.cleanup();
  });

  it('is synced by REQ since the last sync', async () => {
    await waitFor(async () => (await storedAt(station, { authors: [author.hex] })).length >= 5);
    const state = (await health(station.url)).swarm[0]!;
    expect(state).toMatchObject({ url: sister.url, method: 'req' });
    const mine = signEvent(newKey(), { kind: 1, content: 'from the station' });
    await publish(station.relayUrl, mine);
    await waitFor(() => stored.some((event) => event.id === mine.id));
  });
});
