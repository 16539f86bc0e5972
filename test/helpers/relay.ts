import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import type { NostrEvent } from 'nostr-tools';
import WebSocket from 'ws';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { RelayClient, signerFromSecretKey } from '../../streams/relay-client.js';
import { STATION_KINDS } from '../../streams/kinds.js';
import { newKey } from './nostr.js';

useWebSocketImplementation(WebSocket);

/**
 * The station key of the tests' relays: the embedded relay delivers kind 22242 only to connections
 * authenticated with it, as it does to the station's own client.
 */
export const TEST_STATION_KEY = newKey();

/** A real relay (the embedded one) on a free loopback port; `storePath` keeps its events across restarts. */
export function startTestRelay(options: { port?: number; storePath?: string } = {}): Promise<EmbeddedRelay> {
  return startEmbeddedRelay({
    host: '127.0.0.1',
    port: options.port ?? 0,
    storePath: options.storePath,
    privilegedPubkeys: [TEST_STATION_KEY.hex],
  });
}

/** Publishes like any NOSTR client would: nostr-tools' Relay, waiting for the relay's OK. */
export async function publish(url: string, event: NostrEvent): Promise<void> {
  const relay = await Relay.connect(url);
  try {
    await relay.publish(event);
  } finally {
    relay.close();
  }
}

/** The station's relay client, subscribed to the station kinds, once connected. */
export async function connectedClient(url: string, since = 0): Promise<RelayClient> {
  const client = new RelayClient({
    url,
    filters: (lastSeen) => [{ kinds: [...STATION_KINDS], since: lastSeen ?? since }],
    signer: signerFromSecretKey(TEST_STATION_KEY.sk),
    backoff: { initialMs: 50, maxMs: 200 },
  });
  client.start();
  // Live: authenticated as the station (the relay answers kind 22242 with auth-required before that).
  await waitFor(() => client.health()[0]?.subscription === 'live');
  return client;
}

/**
 * Polls a condition (no fixed sleeps): resolves when true. `timeoutMs` only ends a wait that hangs, with a
 * clearer message than the test's own timeout (90 s, vitest.config.ts): never a timing assertion, so the
 * default is long enough for this shared machine's slowest hours (a 5 s default once failed 200 × 60 KB events).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
