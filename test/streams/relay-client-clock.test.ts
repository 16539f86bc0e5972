import type { NostrEvent } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../helpers/nostr.js';
import { ManualClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/relay.js';
import { scriptedRelay, startClient, type ScriptedConnection } from './misbehaving-relays.js';

const YEAR_2100 = Date.UTC(2100, 0, 1) / 1000;

describe('relay client: events dated in the future', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('drops an event dated 2100 before it counts, keeps listening, and resumes from the past', async () => {
    const clock = new ManualClock();
    const key = newKey();
    const from2100 = signEvent(key, { kind: 1, content: '2100', created_at: YEAR_2100 });
    const normal = signEvent(key, { kind: 1, content: 'normal', created_at: clock.seconds() - 120 });
    // Ahead of the clock, but within the 900 s tolerated: kept, yet it must not move `since` past now.
    const slightlyAhead = signEvent(key, { kind: 1, content: 'ahead', created_at: clock.seconds() + 600 });
    const later = signEvent(key, { kind: 1, content: 'later', created_at: clock.seconds() - 60 });
    let live: { connection: ScriptedConnection; subscription: string } | null = null;
    const relay = await scriptedRelay({
      onReq: (c, sub) => {
        live = { connection: c, subscription: sub };
        if (relay.reqs.length > 1) return;
        c.send('EVENT', sub, from2100);
        c.send('EVENT', sub, normal);
        c.send('EOSE', sub);
      },
    });
    cleanups.push(relay.close);
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      clock,
      filters: (since) => [{ kinds: [1], since: since ?? clock.seconds() - 3_600 }],
    });
    await waitFor(() => received.length === 1);
    expect(client.stats).toMatchObject({ future: 1, received: 1, invalid: 0 });
    expect(client.lastSeen).toBe(normal.created_at);
    const send = (event: NostrEvent) => live!.connection.send('EVENT', live!.subscription, event);
    send(slightlyAhead);
    send(later);
    await waitFor(() => received.length === 3);
    expect(received.map((e) => e.content)).toEqual(['normal', 'ahead', 'later']);

    relay.dropClients();
    await waitFor(() => relay.reqs.length === 2);
    const since = (relay.reqs[1]!.filters[0] as { since: number }).since;
    expect(since).toBe(clock.seconds() - 60);
    expect(since).toBeLessThanOrEqual(clock.seconds());

    // Dropped, not remembered: once its date has come, the same event is accepted.
    clock.set(YEAR_2100 * 1000);
    send(from2100);
    await waitFor(() => received.length === 4);
    expect(received[3]!.id).toBe(from2100.id);
    expect(client.stats.duplicates).toBe(0);
  });

  it('leaves future events out of query results too', async () => {
    const clock = new ManualClock();
    const key = newKey();
    const stored = [
      signEvent(key, { kind: 0, created_at: YEAR_2100 }),
      signEvent(key, { kind: 0, created_at: clock.seconds() - 10 }),
    ];
    const relay = await scriptedRelay({
      onReq: (c, sub, filters) => {
        if (!filters[0]?.kinds?.includes(0)) return;
        for (const event of stored) c.send('EVENT', sub, event);
        c.send('EOSE', sub);
      },
    });
    cleanups.push(relay.close);
    const { client } = startClient(cleanups, { url: relay.url, clock, filters: () => [{ kinds: [1] }] });
    await waitFor(() => client.connected);
    const events = await client.query([{ kinds: [0], authors: [key.hex] }]);
    expect(events.map((e) => e.id)).toEqual([stored[1]!.id]);
    expect(client.stats.future).toBe(1);
  });
});
