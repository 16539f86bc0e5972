import type { Request } from 'autocannon';
import { finalizeEvent, generateSecretKey, getPublicKey, nip19 } from 'nostr-tools';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import WebSocket from 'ws';

useWebSocketImplementation(WebSocket);

export interface Scenario {
  name: string;
  connections?: number;
  /** Sets up what the requests need (users, auth events) and returns the request list autocannon cycles. */
  prepare(baseUrl: string): Promise<Request[]>;
}

async function register(baseUrl: string, email: string): Promise<{ nsec: string; npub: string }> {
  const res = await fetch(`${baseUrl}/g1nostr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) throw new Error(`registration failed: ${res.status}`);
  return (await res.json()) as { nsec: string; npub: string };
}

async function relayUrl(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/test-nostr?npub=${'0'.repeat(63)}1`);
  return ((await res.json()) as { relay_url: string }).relay_url;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    prepare: async () => [{ method: 'GET', path: '/health' }],
  },
  {
    name: 'test-nostr',
    prepare: async () => {
      const npub = nip19.npubEncode(getPublicKey(generateSecretKey()));
      return [{ method: 'GET', path: `/api/test-nostr?npub=${npub}` }];
    },
  },
  {
    name: 'me-relay-auth',
    prepare: async (baseUrl) => {
      const user = await register(baseUrl, `bench-${Date.now()}@example.org`);
      const sk = nip19.decode(user.nsec).data as Uint8Array;
      const relay = await Relay.connect(await relayUrl(baseUrl));
      await relay.publish(
        finalizeEvent({ kind: 22242, created_at: Math.floor(Date.now() / 1000), tags: [], content: '' }, sk),
      );
      relay.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return [{ method: 'GET', path: `/api/me?npub=${user.npub}` }];
    },
  },
];
