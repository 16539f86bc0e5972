import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/relay.js';
import { broadcastRelay } from './broadcast-relay.js';
import { captureLogger, scriptedRelay, silentRelay, startClient } from './misbehaving-relays.js';

describe('relay client: liveness', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('replaces a connection whose relay went silent (no pong, no close frame)', async () => {
    const relay = await silentRelay();
    cleanups.push(relay.close);
    const { logger, logs } = captureLogger();
    const { client } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      ping: { frequencyMs: 100, timeoutMs: 100 },
      closeTimeoutMs: 100,
      logger,
    });
    await waitFor(() => client.connected);
    await waitFor(() => relay.connections() >= 2);
    expect(client.health()[0]!.reconnects).toBeGreaterThanOrEqual(1);
    // The unanswered close handshake did not keep the old socket: it was destroyed, not left half-open.
    await waitFor(() => relay.openSockets() <= 1);
    expect(logs.filter((l) => l.msg === 'relay connection lost').length).toBeGreaterThanOrEqual(1);
    // The client logs the new connection once its own side has opened, which can come after the relay's.
    await waitFor(() => logs.filter((l) => l.msg === 'relay connected').length >= 2);
  });

  it('declares dead a relay that answers REQs but never a ping, shows it so, and backs off more each time', async () => {
    const relay = await broadcastRelay({ autoPong: false });
    cleanups.push(relay.close);
    const { logger, logs } = captureLogger();
    const { client } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      ping: { frequencyMs: 30, timeoutMs: 30 },
      backoff: { initialMs: 20, maxMs: 5_000 },
      // Lasting is not enough to start the back-off over: the connection must also have answered a ping.
      healthyAfterMs: 1,
      logger,
    });
    const atClose: { subscription: string; ready: boolean }[] = [];
    client.status$.subscribe((status) => {
      if (status === 'closed')
        atClose.push({ subscription: client.health()[0]!.subscription, ready: client.ready });
    });
    await waitFor(() => client.ready);
    const lost = () => logs.filter((l) => l.msg === 'relay connection lost');
    await waitFor(() => lost().length >= 3);
    expect(lost().every((l) => String(l.reason).startsWith('no pong within 30 ms'))).toBe(true);
    // Ceilings of 20, 40, 80 ms with jitter in [half, all]: the third wait is longer than any first one.
    expect(Number(lost()[2]!.delayMs)).toBeGreaterThan(Number(lost()[0]!.delayMs));
    expect(relay.connections.length).toBeGreaterThanOrEqual(3);
    // Each time the link went down, /health's fields said so: not open, not live.
    expect(atClose.length).toBeGreaterThanOrEqual(3);
    expect(atClose.every((state) => state.subscription === 'none' && !state.ready)).toBe(true);
    expect(client.stats.reconnects).toBeGreaterThanOrEqual(3);
  });

  it('logs a CLOSED subscription and resubscribes after a back-off, not in a loop', async () => {
    const relay = await scriptedRelay({
      onReq: (c, sub) => c.send('CLOSED', sub, 'error: shutting down idle subscriptions'),
    });
    cleanups.push(relay.close);
    const { logger, logs } = captureLogger();
    const { client } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      backoff: { initialMs: 20, maxMs: 100 },
      logger,
    });
    await waitFor(() => relay.reqs.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // With delays of at least 10, 20, 40, then 50 ms: a few dozen REQs at most; a loop would send thousands.
    expect(relay.reqs.length).toBeLessThan(40);
    const closed = logs.filter((l) => l.msg === 'relay closed the subscription');
    expect(closed.length).toBeGreaterThanOrEqual(3);
    expect(closed[0]).toMatchObject({
      level: 40,
      relay: relay.url,
      reason: 'error: shutting down idle subscriptions',
    });
    expect(client.stats.reconnects).toBe(0);
    expect(relay.connections).toHaveLength(1);
  });
});
