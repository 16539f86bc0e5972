import { verifyEvent } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { signerFromSecretKey } from '../../streams/relay-client.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { authRequiringRelay, captureLogger, startClient } from './misbehaving-relays.js';

describe('relay client: NIP-42', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers the AUTH challenge with the station key, then receives the events', async () => {
    const station = newKey();
    const note = signEvent(newKey(), { kind: 1, content: 'members only' });
    const relay = await authRequiringRelay([note]);
    cleanups.push(relay.close);
    const { logger, logs } = captureLogger();
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      signer: signerFromSecretKey(station.sk),
      logger,
    });
    await waitFor(() => received.length === 1);
    expect(received[0]!.id).toBe(note.id);
    expect(relay.auths).toHaveLength(1);
    const auth = relay.auths[0]!;
    expect(verifyEvent(auth)).toBe(true);
    expect(auth.kind).toBe(22242);
    expect(auth.pubkey).toBe(station.hex);
    expect(auth.tags).toContainEqual(['challenge', relay.connections[0]!.state.challenge]);
    const relayTag = auth.tags.find((t) => t[0] === 'relay')?.[1];
    expect(new URL(relayTag!).host).toBe(new URL(relay.url).host);
    // Live once the relay answered the REQ sent after our AUTH (the EOSE may come after the event).
    await waitFor(() => client.ready);
    expect(client.health()[0]).toMatchObject({ status: 'open', subscription: 'live', reconnects: 0 });
    expect(logs.some((l) => l.msg === 'authenticated to the relay (NIP-42)')).toBe(true);
  });

  it('authenticates when the REQ is refused before the challenge was answered', async () => {
    const station = newKey();
    const note = signEvent(newKey(), { kind: 1 });
    const relay = await authRequiringRelay([note]);
    cleanups.push(relay.close);
    // The signer is slow: the relay's CLOSED "auth-required:" arrives while the AUTH is still being signed.
    const sign = signerFromSecretKey(station.sk);
    const { received } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      signer: async (template) => {
        await waitFor(() => relay.reqs.length >= 1);
        return sign(template);
      },
    });
    await waitFor(() => received.length === 1);
    expect(relay.auths).toHaveLength(1);
    expect(relay.reqs.length).toBeGreaterThanOrEqual(2);
  });

  it('survives a refused AUTH: logged, then the back-off, without an unhandled rejection', async () => {
    const relay = await authRequiringRelay([signEvent(newKey(), { kind: 1 })]);
    cleanups.push(relay.close);
    const { logger, logs } = captureLogger();
    const sign = signerFromSecretKey(newKey().sk);
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      // Answers another challenge than the one asked: the relay says OK false.
      signer: (template) =>
        sign({ ...template, tags: [...template.tags.slice(0, 1), ['challenge', 'other']] }),
      logger,
    });
    await waitFor(() => logs.some((l) => l.msg === 'relay refused our NIP-42 authentication'));
    await waitFor(() => relay.reqs.length >= 3);
    expect(relay.auths).toHaveLength(1);
    expect(received).toHaveLength(0);
    expect(client.health()[0]!.status).toBe('open');
  });

  it('without a signer, reports auth-required and retries with back-off, not in a loop', async () => {
    const relay = await authRequiringRelay([signEvent(newKey(), { kind: 1 })]);
    cleanups.push(relay.close);
    const { client, received } = startClient(cleanups, {
      url: relay.url,
      filters: () => [{ kinds: [1] }],
      backoff: { initialMs: 20, maxMs: 100 },
    });
    await waitFor(() => relay.reqs.length >= 3);
    await waitFor(() => client.health()[0]!.subscription === 'auth-required');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // At most one REQ per 50 ms of back-off (hundreds of thousands in a loop); the connection is kept.
    expect(relay.reqs.length).toBeLessThan(40);
    expect(relay.auths).toHaveLength(0);
    expect(received).toHaveLength(0);
    expect(client.stats.reconnects).toBe(0);
    expect(relay.connections).toHaveLength(1);
  });
});
