import type { AddressInfo } from 'node:net';
import type { NostrEvent } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { RelayClient } from '../../streams/relay-client.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';

/** A relay that misbehaves on purpose: speaks the wire protocol but sends whatever the test wants. */
async function scriptedRelay(onReq: (socket: WebSocket, subscription: string, filters: object[]) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) =>
    socket.on('message', (data) => {
      const [type, id, ...filters] = JSON.parse(data.toString());
      if (type === 'REQ') onReq(socket, id, filters);
    }),
  );
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>(
        (resolve) => (server.clients.forEach((c) => c.terminate()), server.close(() => resolve())),
      ),
  };
}

describe('relay client', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function client(url: string, initialMs = 50) {
    const c = new RelayClient({
      url,
      filters: (lastSeen) => [{ kinds: [1, 22242], since: lastSeen ?? 0 }],
      backoff: { initialMs, maxMs: initialMs * 4 },
    });
    const received: NostrEvent[] = [];
    c.events$.subscribe((e) => received.push(e));
    c.start();
    cleanups.push(() => c.stop());
    return { c, received };
  }

  it('drops forged and malformed events and de-duplicates, counting them', async () => {
    const good = signEvent(newKey(), { kind: 1, content: 'hi' });
    const forged = { ...JSON.parse(JSON.stringify(good)), content: 'tampered' };
    const relay = await scriptedRelay((socket, sub) => {
      socket.send(JSON.stringify(['EVENT', sub, forged]));
      socket.send(JSON.stringify(['EVENT', sub, { kind: 'nope' }]));
      socket.send('not json');
      socket.send(JSON.stringify(['EVENT', sub, good]));
      socket.send(JSON.stringify(['EVENT', sub, good]));
      socket.send(JSON.stringify(['EOSE', sub]));
    });
    cleanups.push(relay.close);
    const { c, received } = client(relay.url);
    await waitFor(() => c.stats.duplicates === 1);
    expect(received.map((e) => e.id)).toEqual([good.id]);
    expect(c.stats.invalid).toBe(3);
  });

  it('resubscribes from the newest created_at it has seen', async () => {
    const filters: object[][] = [];
    const event = signEvent(newKey(), { kind: 1, created_at: 1_800_000_123 });
    const relay = await scriptedRelay((socket, sub, f) => {
      filters.push(f);
      if (filters.length === 1) {
        socket.send(JSON.stringify(['EVENT', sub, event]));
        setTimeout(() => socket.terminate(), 20);
      }
    });
    cleanups.push(relay.close);
    const { c } = client(relay.url);
    await waitFor(() => filters.length === 2);
    expect(filters[0]).toEqual([{ kinds: [1, 22242], since: 0 }]);
    expect(filters[1]).toEqual([{ kinds: [1, 22242], since: 1_800_000_123 }]);
    expect(c.stats.reconnects).toBe(1);
  });

  it('receives events published while it was disconnected, once it is back', async () => {
    let relay = await startTestRelay();
    const port = relay.port;
    cleanups.push(() => relay.close());
    const { c, received } = client(relay.url, 1_000);
    await waitFor(() => c.connected);
    const before = signEvent(newKey(), { kind: 1, content: 'before' });
    await publish(relay.url, before);
    await waitFor(() => received.length === 1);
    // The embedded relay keeps events on disk only with a journal; a restart here keeps the port but not the
    // events, so the event published during the outage is what the client must catch up on.
    await relay.close();
    relay = await startTestRelay({ port });
    const during = signEvent(newKey(), { kind: 1, content: 'during' });
    await publish(relay.url, during);
    expect(c.connected).toBe(false);
    await waitFor(() => received.length === 2, 10_000);
    expect(received.map((e) => e.content)).toEqual(['before', 'during']);
  });

  it('answers publish with the relay OK and query at EOSE', async () => {
    const relay = await startTestRelay();
    cleanups.push(() => relay.close());
    const { c } = client(relay.url);
    await waitFor(() => c.connected);
    const note = signEvent(newKey(), { kind: 1, content: 'stored' });
    expect(await c.publish(note)).toEqual({ accepted: true, message: '' });
    expect((await c.query([{ ids: [note.id] }])).map((e) => e.id)).toEqual([note.id]);
  });
});
