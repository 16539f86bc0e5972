import { afterEach, describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../helpers/nostr.js';
import { ManualClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/relay.js';
import { captureLogger, scriptedRelay, startClient } from './misbehaving-relays.js';

describe('relay client: several relays', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('merges the relays, emits an event both send once, and logs a NOTICE', async () => {
    const clock = new ManualClock();
    const key = newKey();
    const shared = signEvent(key, { kind: 1, content: 'shared', created_at: clock.seconds() - 30 });
    const onlyExtra = signEvent(key, { kind: 1, content: 'extra only', created_at: clock.seconds() - 20 });
    const station = await scriptedRelay({
      onConnect: (c) => c.send('NOTICE', 'maintenance tonight'),
      onReq: (c, sub) => {
        c.send('EVENT', sub, shared);
        c.send('EOSE', sub);
      },
    });
    const extra = await scriptedRelay({
      onReq: (c, sub) => {
        c.send('EVENT', sub, shared);
        c.send('EVENT', sub, onlyExtra);
        c.send('EOSE', sub);
      },
    });
    cleanups.push(station.close, extra.close);
    const { logger, logs } = captureLogger();
    const { client, received } = startClient(cleanups, {
      urls: [station.url, extra.url],
      clock,
      filters: () => [{ kinds: [1] }],
      logger,
    });
    await waitFor(() => client.stats.received === 3);
    expect(received.map((e) => e.content).sort()).toEqual(['extra only', 'shared']);
    expect(client.stats.duplicates).toBe(1);
    await waitFor(() => logs.some((l) => l.msg === 'relay notice'));
    expect(logs.find((l) => l.msg === 'relay notice')).toMatchObject({
      level: 30,
      relay: station.url,
      notice: 'maintenance tonight',
    });
    expect(logs.filter((l) => l.msg === 'relay connected').map((l) => l.relay)).toEqual(
      expect.arrayContaining([station.url, extra.url]),
    );
    expect(client.health()).toEqual([
      {
        url: station.url,
        role: 'station',
        status: 'open',
        subscription: 'live',
        lastEventAt: clock.seconds(),
        reconnects: 0,
      },
      {
        url: extra.url,
        role: 'extra',
        status: 'open',
        subscription: 'live',
        lastEventAt: clock.seconds(),
        reconnects: 0,
      },
    ]);
    expect(client.url).toBe(station.url);
  });

  it('is connected with the station relay alone, and publishes and queries there only', async () => {
    const station = await scriptedRelay({
      onMessage: (c, [type, event]) => {
        if (type === 'EVENT') c.send('OK', (event as { id: string }).id, true, '');
      },
      onReq: (c, sub, filters) => {
        if (filters[0]?.ids) c.send('EOSE', sub);
      },
    });
    const extra = await scriptedRelay({});
    const gone = extra.url;
    await extra.close();
    cleanups.push(station.close);
    const { client } = startClient(cleanups, { urls: [station.url, gone], filters: () => [{ kinds: [1] }] });
    await waitFor(() => client.connected && client.health()[1]!.reconnects >= 1);
    expect(client.health()[1]!.status).not.toBe('open');
    const note = signEvent(newKey(), { kind: 1 });
    expect(await client.publish(note)).toEqual({ accepted: true, message: '' });
    expect(await client.query([{ ids: [note.id] }])).toEqual([]);
  });
});
