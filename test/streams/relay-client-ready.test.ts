import type { NostrEvent } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { startStreams } from '../../streams/index.js';
import { STATION_KINDS } from '../../streams/kinds.js';
import { RelayClient, signerFromSecretKey, type Signer } from '../../streams/relay-client.js';
import { buildTestApp } from '../helpers/app.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import { auth22242, nowSeconds, register } from '../helpers/relay-station.js';
import { broadcastRelay } from './broadcast-relay.js';
import { startClient } from './misbehaving-relays.js';

const stationFilters = (since: number | null) => [
  { kinds: [...STATION_KINDS], since: since ?? nowSeconds() - 60 },
];

describe('relay client: subscribed from the moment a connection opens', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('hands a login answer published right after the connection opened to the auth cache', async () => {
    // A plain relay: no AUTH challenge, ever. The client still has the station key, as in production.
    const relay = await broadcastRelay();
    cleanups.push(relay.close);
    const client = new RelayClient({
      url: relay.url,
      filters: stationFilters,
      signer: signerFromSecretKey(newKey().sk),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    const t = await buildTestApp({ overrides: { relay: client } });
    cleanups.push(t.close);
    const streams = startStreams({ client, auth: t.deps.auth });
    cleanups.push(async () => {
      streams.unsubscribe();
      await client.stop();
    });
    const alice = await register(t, 'alice@example.org');
    const { challenge } = (await t.app.inject({ url: `/api/nip42/challenge?npub=${alice.npub}` })).json();

    client.start();
    await waitFor(() => client.connected);
    await publish(relay.url, auth22242(alice, { tags: [['challenge', challenge as string]] }));

    // The relay had the station's subscription when the login came: it handed it over, once.
    expect(relay.deliveries).toEqual([1]);
    await waitFor(() => t.deps.auth.cache.lookup(alice.hex, '127.0.0.1', 0) !== null);
    const me = await t.app.inject({ url: `/api/me?npub=${alice.npub}` });
    expect(me.statusCode).toBe(200);
    expect(relay.auths).toHaveLength(0);
  });

  it('authenticates when a challenge comes late, then asks again from the same point', async () => {
    const station = newKey();
    // Kind 22242 only to the station's authenticated connection, as the embedded relay does.
    const relay = await broadcastRelay({ station: station.hex });
    cleanups.push(relay.close);
    let letSign: () => void = () => undefined;
    const signing = new Promise<void>((resolve) => (letSign = resolve));
    const sign = signerFromSecretKey(station.sk);
    const signer: Signer = async (template) => {
      await signing;
      return sign(template);
    };
    const since = nowSeconds() - 60;
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      filters: (from) => [{ kinds: [1, 22242], since: from ?? since }],
      signer,
    });
    await waitFor(() => client.ready);
    const logins = () => received.filter((event) => event.kind === 22242);
    const login = (): NostrEvent => signEvent(newKey(), { kind: 22242, tags: [['challenge', 'x']] });
    await publish(relay.url, login());
    // Another kind reaches the unauthenticated subscription, and moves the resume point.
    await publish(relay.url, signEvent(newKey(), { kind: 1, created_at: nowSeconds() }));
    await waitFor(() => received.length === 1);
    expect(relay.deliveries).toEqual([0, 1]);

    relay.challenge(relay.connections[0]!);
    // Answering: the subscription it has will be replaced, so the link is not ready meanwhile.
    await waitFor(() => !client.ready);
    expect(client.health()[0]).toMatchObject({ status: 'open', subscription: 'none' });
    letSign();
    await waitFor(() => relay.reqs.length === 2);
    await waitFor(() => client.ready);
    expect(relay.auths.map((auth) => auth.pubkey)).toEqual([station.hex]);
    expect(relay.reqs[1]!.filters).toEqual(relay.reqs[0]!.filters);
    expect(relay.subscriptions()).toBe(1);

    const second = login();
    await publish(relay.url, second);
    expect(relay.deliveries).toEqual([0, 1, 1]);
    await waitFor(() => logins().length === 1);
    expect(logins()[0]!.id).toBe(second.id);
    expect(client.stats.reconnects).toBe(0);
  });
});
