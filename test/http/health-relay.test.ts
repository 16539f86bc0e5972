import { afterEach, describe, expect, it } from 'vitest';
import { RelayClient, signerFromSecretKey } from '../../streams/relay-client.js';
import { buildTestApp } from '../helpers/app.js';
import { newKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { broadcastRelay } from '../streams/broadcast-relay.js';

interface HealthBody {
  status: string;
  relay: string;
  relays: { role: string; status: string; subscription: string }[];
}

describe('/health and the station relay link', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('says connected only once the subscription of this connection is answered (EOSE)', async () => {
    const relay = await broadcastRelay({ holdEose: true });
    cleanups.push(relay.close);
    const client = new RelayClient({
      url: relay.url,
      filters: () => [{ kinds: [1, 22242] }],
      signer: signerFromSecretKey(newKey().sk),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    const t = await buildTestApp({ overrides: { relay: client } });
    cleanups.push(t.close, () => client.stop());
    const health = async () => (await t.app.inject({ url: '/health' })).json<HealthBody>();

    client.start();
    await waitFor(() => relay.reqs.length === 1);
    // Open and subscribed, the back-fill not answered yet: not a link a login can be published to.
    expect(await health()).toMatchObject({
      status: 'degraded',
      relay: 'disconnected',
      relays: [{ role: 'station', status: 'open', subscription: 'none' }],
    });

    relay.releaseEose();
    await waitFor(async () => (await health()).relay === 'connected');
    expect((await health()).relays[0]).toMatchObject({ status: 'open', subscription: 'live' });

    // A new connection starts over: not connected until its own subscription is answered.
    relay.holdEose();
    relay.dropClients();
    await waitFor(() => relay.reqs.length === 2);
    expect(await health()).toMatchObject({
      relay: 'disconnected',
      relays: [{ status: 'open', subscription: 'none' }],
    });
    relay.releaseEose();
    await waitFor(async () => (await health()).relay === 'connected');
    expect(client.stats.reconnects).toBe(1);
  });
});
