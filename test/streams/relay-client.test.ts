import { afterEach, describe, expect, it } from 'vitest';
import { RelayClient } from '../../streams/relay-client.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { ManualClock } from '../helpers/clock.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { scriptedRelay, startClient } from './misbehaving-relays.js';

describe('relay client', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('drops forged and malformed events and de-duplicates, counting them', async () => {
    const good = signEvent(newKey(), { kind: 1, content: 'hi' });
    const forged = { ...JSON.parse(JSON.stringify(good)), content: 'tampered' };
    const relay = await scriptedRelay({
      onReq: (c, sub) => {
        c.send('EVENT', sub, forged);
        c.send('EVENT', sub, { kind: 'nope' });
        c.socket.send('not json');
        c.send('EVENT', sub, good);
        c.send('EVENT', sub, good);
        c.send('EOSE', sub);
      },
    });
    cleanups.push(relay.close);
    const { client, received } = startClient(cleanups, { url: relay.url, filters: () => [{ kinds: [1] }] });
    await waitFor(() => client.stats.duplicates === 1);
    expect(received.map((e) => e.id)).toEqual([good.id]);
    expect(client.stats).toMatchObject({ invalid: 3, received: 2, duplicates: 1, future: 0 });
  });

  it('resubscribes from the newest created_at seen minus the overlap', async () => {
    const clock = new ManualClock();
    const event = signEvent(newKey(), { kind: 1, created_at: clock.seconds() - 1_000 });
    const relay = await scriptedRelay({
      onReq: (c, sub) => {
        if (relay.reqs.length === 1) c.send('EVENT', sub, event);
      },
    });
    cleanups.push(relay.close);
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      clock,
      overlapSeconds: 30,
      filters: (since) => [{ kinds: [1], since: since ?? 0 }],
    });
    await waitFor(() => received.length === 1);
    expect(client.lastSeen).toBe(event.created_at);
    relay.dropClients();
    await waitFor(() => relay.reqs.length === 2);
    expect(relay.reqs.map((r) => r.filters)).toEqual([
      [{ kinds: [1], since: 0 }],
      [{ kinds: [1], since: event.created_at - 30 }],
    ]);
    expect(client.stats.reconnects).toBe(1);
    expect(client.health()[0]!.reconnects).toBe(1);
  });

  it('receives events published while the relay restarted, each once downstream', async () => {
    let relay = await startTestRelay();
    const port = relay.port;
    cleanups.push(() => relay.close());
    // A back-off long enough for the relay to restart and receive an event before the client is back.
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      filters: (since) => [{ kinds: [1], since: since ?? 0 }],
      backoff: { initialMs: 3_000, maxMs: 6_000 },
    });
    await waitFor(() => client.connected);
    const before = signEvent(newKey(), { kind: 1, content: 'before' });
    await publish(relay.url, before);
    await waitFor(() => received.length === 1);
    await relay.close();
    await waitFor(() => !client.connected);
    relay = await startTestRelay({ port });
    const during = signEvent(newKey(), { kind: 1, content: 'during' });
    // The restarted relay holds both (as a relay with storage would): the overlap fetches `before` again.
    await publish(relay.url, before);
    await publish(relay.url, during);
    await waitFor(() => received.length === 2);
    await waitFor(() => client.stats.duplicates === 1);
    expect(received.map((e) => e.content)).toEqual(['before', 'during']);
    expect(client.stats.reconnects).toBeGreaterThanOrEqual(1);
  });

  it('answers publish with the relay OK and query at EOSE', async () => {
    const relay = await startTestRelay();
    cleanups.push(() => relay.close());
    const { client } = startClient(cleanups, { url: relay.url, filters: () => [{ kinds: [1] }] });
    await waitFor(() => client.connected);
    const note = signEvent(newKey(), { kind: 1, content: 'stored' });
    expect(await client.publish(note)).toEqual({ accepted: true, message: '' });
    expect((await client.query([{ ids: [note.id] }])).map((e) => e.id)).toEqual([note.id]);
    const forged = { ...note, id: 'f'.repeat(64) };
    expect((await client.publish(forged)).accepted).toBe(false);
  });

  it('fails publish and query fast when it is not running', async () => {
    const relay = await scriptedRelay({});
    cleanups.push(relay.close);
    const idle = new RelayClient({ url: relay.url, filters: () => [] });
    await expect(idle.query([{ kinds: [1] }])).rejects.toThrow('not running');
    await expect(idle.publish(signEvent(newKey(), { kind: 1 }))).rejects.toThrow('not running');
    expect(relay.connections).toHaveLength(0);
  });

  it('stop closes the connection and completes events$', async () => {
    const relay = await scriptedRelay({ onReq: (c, sub) => c.send('EOSE', sub) });
    cleanups.push(relay.close);
    const { client } = startClient(cleanups, { url: relay.url, filters: () => [{ kinds: [1] }] });
    let completed = false;
    client.events$.subscribe({ complete: () => (completed = true) });
    await waitFor(() => client.health()[0]!.subscription === 'live');
    await client.stop();
    expect(completed).toBe(true);
    expect(client.connected).toBe(false);
    expect(client.health()[0]).toMatchObject({ status: 'closed', subscription: 'none', reconnects: 0 });
    await waitFor(() => relay.connections[0]!.socket.readyState === relay.connections[0]!.socket.CLOSED);
  });
});
