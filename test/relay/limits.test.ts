import type { NostrEvent } from 'nostr-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from '../../src/relay/limits.js';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { RawClient } from './raw-client.js';

const now = () => Math.floor(Date.now() / 1000);

describe('embedded relay: every advertised limit holds', () => {
  let relay: EmbeddedRelay;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await relay.close();
  });

  async function start(limits: Partial<RelayLimits>, rateExempt: string[] = ['127.0.0.1']) {
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0, limits, rateExempt });
    const client = await RawClient.connect(relay.url);
    clients.push(client);
    return client;
  }

  async function publishAll(client: RawClient, events: NostrEvent[]): Promise<unknown[][]> {
    for (const event of events) client.send('EVENT', event);
    return Promise.all(events.map((event) => client.ok(event.id)));
  }

  it('applies default_limit and max_limit to REQs', async () => {
    const client = await start({ defaultLimit: 5, maxLimit: 8 });
    const key = newKey();
    // One clock reading for all: a second passing mid-loop would give two notes the same time.
    const at = now();
    const notes = Array.from({ length: 12 }, (_, i) =>
      signEvent(key, { kind: 1, content: `n${i}`, created_at: at - i }),
    );
    await publishAll(client, notes);
    client.send('REQ', 'default', { kinds: [1] });
    expect(await client.stored('default')).toHaveLength(5);
    client.send('REQ', 'capped', { kinds: [1], limit: 100 });
    const capped = await client.stored('capped');
    expect(capped.map((event) => event.content)).toEqual(notes.slice(0, 8).map((event) => event.content));
  });

  it('bounds subscriptions and filters per connection, and subscription ids', async () => {
    const client = await start({ maxSubscriptions: 2, maxFilters: 2, maxSubidLength: 8 });
    client.send('REQ', 'a', { kinds: [1] });
    client.send('REQ', 'b', { kinds: [1] });
    client.send('REQ', 'c', { kinds: [1] });
    expect((await client.closed('c'))[2]).toMatch(/^error: at most 2 subscriptions/);
    client.send('REQ', 'a', { kinds: [1] }); // replacing an open subscription is allowed
    await client.next((frame) => frame[0] === 'EOSE' && frame[1] === 'a', 3);
    client.send('CLOSE', 'b');
    client.send('REQ', 'd', { kinds: [1] }, { kinds: [2] }, { kinds: [3] });
    expect((await client.closed('d'))[2]).toMatch(/^invalid: a REQ has 1 to 2 filters/);
    // CLOSED, not only a NOTICE: a client waits on its subscription's answer (NIP-01).
    client.send('REQ', 'much-too-long-id', { kinds: [1] });
    expect((await client.closed('much-too-long-id'))[2]).toMatch(/^invalid: a subscription id has 1 to 8/);
    client.send('REQ', 'e', { authors: ['not-hex'] });
    expect((await client.closed('e'))[2]).toMatch(/^invalid: /);
  });

  it('refuses events dated too far ahead, too many tags, too long content', async () => {
    const client = await start({ maxFutureSeconds: 900, maxEventTags: 3, maxContentLength: 10 });
    const key = newKey();
    const [future, tags, content, fine] = await publishAll(client, [
      signEvent(key, { kind: 1, created_at: now() + 3_600 }),
      signEvent(key, {
        kind: 1,
        tags: [
          ['t', '1'],
          ['t', '2'],
          ['t', '3'],
          ['t', '4'],
        ],
      }),
      signEvent(key, { kind: 1, content: 'x'.repeat(11) }),
      signEvent(key, { kind: 1, created_at: now() + 60, content: 'ok' }),
    ]);
    expect(future!.slice(2)).toEqual([false, expect.stringMatching(/^invalid: created_at .* future/)]);
    expect(tags!.slice(2)).toEqual([false, expect.stringMatching(/^invalid: more than 3 tags/)]);
    expect(content!.slice(2)).toEqual([false, expect.stringMatching(/^invalid: content longer/)]);
    expect(fine![2]).toBe(true);
  });

  it('limits events per address and minute, except for exempt addresses', async () => {
    const client = await start({ maxEventsPerMinute: 3 }, []);
    const key = newKey();
    const answers = await publishAll(
      client,
      Array.from({ length: 5 }, (_, i) => signEvent(key, { kind: 1, content: `${i}` })),
    );
    expect(answers.map((answer) => answer[2])).toEqual([true, true, true, false, false]);
    expect(answers[3]![3]).toMatch(/^rate-limited: /);
  });

  it('closes a connection that keeps sending events past its allowance, after 100 refusals in a minute', async () => {
    const client = await start({ maxEventsPerMinute: 2 }, []);
    const key = newKey();
    // Enough that one minute holds 100 refusals even if a minute ends while they are sent.
    const events = Array.from({ length: 250 }, (_, i) => signEvent(key, { kind: 1, content: `${i}` }));
    for (const event of events) client.send('EVENT', event);
    await waitFor(() => client.closeCode !== null);
    expect(client.closeCode).toBe(1008);
    const refused = client.frames.filter((frame) => frame[0] === 'OK' && frame[2] === false);
    expect(refused.length).toBeGreaterThanOrEqual(100);
    expect(refused.length).toBeLessThan(240);
    expect(refused.every((frame) => /^rate-limited: /.test(String(frame[3])))).toBe(true);
    // Those within the allowance (two a minute) were stored; their OK may not have reached a connection closed
    // meanwhile.
    const reader = await RawClient.connect(relay.url);
    clients.push(reader);
    await waitFor(async () => {
      reader.send('REQ', 'mine', { authors: [key.hex] });
      const stored = await reader.stored('mine');
      reader.frames.length = 0;
      return stored.length === 2 || stored.length === 4;
    });
  });

  it('closes a connection whose message passes max_message_length', async () => {
    const client = await start({ maxMessageLength: 1_024 });
    client.send('EVENT', signEvent(newKey(), { kind: 1, content: 'x'.repeat(2_000) }));
    await waitFor(() => client.closeCode !== null);
    expect(client.closeCode).toBe(1009);
  });

  it('drops a slow consumer instead of buffering for it', async () => {
    const limits = { ...DEFAULT_RELAY_LIMITS, slowConsumerBytes: 256 * 1024, maxContentLength: 64 * 1024 };
    const reader = await start(limits);
    reader.send('REQ', 'all', { kinds: [1] });
    await reader.stored('all');
    // The reader stops reading: what the relay sends it piles up in its send buffer.
    (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const writer = await RawClient.connect(relay.url);
    clients.push(writer);
    const key = newKey();
    const big = Array.from({ length: 200 }, (_, i) =>
      signEvent(key, { kind: 1, content: `${i}`.padEnd(60_000, 'x') }),
    );
    await publishAll(writer, big);
    await waitFor(() => relay.health().connections === 1);
  });
});
