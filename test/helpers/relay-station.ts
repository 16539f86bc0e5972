import type { Subscription } from 'rxjs';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { startStreams } from '../../streams/index.js';
import type { RelayClient } from '../../streams/relay-client.js';
import { buildTestApp, type TestApp } from './app.js';
import { keyFromSecret, signEvent, type TestKey } from './nostr.js';
import { connectedClient, publish, startTestRelay, waitFor } from './relay.js';

/** The HTTP app, a real relay and the bot's client with its streams: the relay-observed login flow end to end. */
export interface RelayStation {
  relay: EmbeddedRelay;
  client: RelayClient;
  t: TestApp;
  streams: Subscription;
}

export async function startRelayStation(env: Record<string, string> = {}): Promise<RelayStation> {
  const relay = await startTestRelay();
  const client = await connectedClient(relay.url, Math.floor(Date.now() / 1000) - 60);
  const t = await buildTestApp({ env, overrides: { relay: client } });
  const streams = startStreams({ client, auth: t.deps.auth });
  return { relay, client, t, streams };
}

export async function stopRelayStation(e: RelayStation): Promise<void> {
  e.streams.unsubscribe();
  await e.t.close();
  await e.client.stop();
  await e.relay.close();
}

export async function register(t: TestApp, email: string): Promise<TestKey> {
  const created = await t.deps.users.create({ email });
  return keyFromSecret(created.keys.nostr.secretKey);
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export const auth22242 = (key: TestKey, extra: { created_at?: number; tags?: string[][] } = {}) =>
  signEvent(key, {
    kind: 22242,
    tags: [['relay', 'ws://127.0.0.1'], ...(extra.tags ?? [])],
    created_at: extra.created_at,
  });

/** The UPlanet pages' flow: ask a challenge (from `address`), publish the signed answer, wait for the bot. */
export async function loginOnRelay(e: RelayStation, key: TestKey, address = '127.0.0.1') {
  const { challenge } = (
    await e.t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}`, remoteAddress: address })
  ).json() as { challenge: string };
  const answer = auth22242(key, { tags: [['challenge', challenge]] });
  await publish(e.relay.url, answer);
  await waitFor(() => e.t.deps.auth.cache.lookup(key.hex, address, 0) !== null);
  return answer;
}
