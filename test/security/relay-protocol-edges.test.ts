import { nip77 } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addressKey } from '../../src/relay/address-key.js';
import {
  startEmbeddedRelay,
  type EmbeddedRelay,
  type EmbeddedRelayOptions,
} from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { Stranger } from './relay-attack-station.js';

/** A stranger's socket whose proxy (127.0.0.1, trusted) says it comes from `forwardedFor`. */
async function behindProxy(url: string, forwardedFor: string): Promise<Stranger> {
  const socket = new WebSocket(url, { headers: { 'X-Forwarded-For': forwardedFor } });
  return Stranger.wrap(socket);
}

/**
 * Issue 43, the protocol's edges: what a stranger can send that is not a plain note or REQ. The relay in
 * this process (the service runs the same code on its thread), strangers on loopback addresses of their own.
 */
describe('the public relay at its edges', () => {
  let relay: EmbeddedRelay;
  const clients: Stranger[] = [];
  const relays: Relay[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const client of relays.splice(0)) client.close();
    await relay?.close();
  });

  async function start(options: Partial<EmbeddedRelayOptions> = {}): Promise<Stranger> {
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0, ...options });
    const client = await Stranger.connect(relay.url, '127.0.40.1');
    clients.push(client);
    return client;
  }

  it('answers NIP-77 messages it cannot serve with NEG-ERR, so that a client stops waiting', async () => {
    const client = await start();
    client.send('NEG-OPEN', 'neg1', { kinds: [1] }, 'zz');
    const answer = await client.next((frame) => frame[1] === 'neg1');
    expect(answer[0]).toBe('NEG-ERR');
    expect(answer[2]).toMatch(/^invalid: /);
    const seen = client.frames.length;
    client.send('NEG-MSG', 'neg1', '6100');
    const closed = await client.next((frame) => frame[1] === 'neg1', seen);
    expect(closed.slice(0, 2)).toEqual(['NEG-ERR', 'neg1']);
    expect(closed[2]).toMatch(/^closed: /);
    client.send('NEG-CLOSE', 'neg1');

    // nostr-tools' NegentropySync over an empty set ends (onclose) instead of waiting forever.
    const negentropy = await Relay.connect(relay.url);
    relays.push(negentropy);
    const storage = new nip77.NegentropyStorageVector();
    storage.seal();
    const ended = new Promise<string>((resolve) => {
      const sync = new nip77.NegentropySync(
        negentropy,
        storage,
        { kinds: [1] },
        {
          onclose: (reason) => resolve(`ended${reason ? `: ${reason}` : ''}`),
        },
      );
      sync.start().catch((error: unknown) => resolve(`failed to start: ${String(error)}`));
    });
    const guard = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still waiting'), 10_000).unref(),
    );
    expect(await Promise.race([ended, guard])).toBe('ended');
    // The connection is still usable.
    client.send('REQ', 'after', { kinds: [1] });
    await client.next((frame) => frame[0] === 'EOSE' && frame[1] === 'after');
  });

  it('closes a subscription whose id is longer than 64 characters', async () => {
    const client = await start();
    const long = 's'.repeat(65);
    client.send('REQ', long, { kinds: [1] });
    const closed = await client.next((frame) => frame[0] === 'CLOSED' && frame[1] === long);
    expect(closed[2]).toMatch(/^invalid: /);
    const longest = 's'.repeat(64);
    client.send('REQ', longest, { kinds: [1] });
    await client.next((frame) => frame[0] === 'EOSE' && frame[1] === longest);
  });

  it('refuses kinds outside 0–65535, a wrong id and a wrong signature', async () => {
    const client = await start();
    const key = newKey();
    const tooBig = signEvent(key, { kind: 70_000, content: 'kind 70000' });
    const negative = signEvent(key, { kind: -1, content: 'kind -1' });
    const altered = { ...signEvent(key, { kind: 1, content: 'as signed' }), content: 'as altered' };
    const other = signEvent(key, { kind: 1, content: 'another note' });
    // The id matches the content, the signature is another event's.
    const forged = { ...signEvent(key, { kind: 1, content: 'forged' }), sig: other.sig };
    for (const event of [tooBig, negative, altered, forged]) client.send('EVENT', event);
    const answers = await Promise.all(
      [tooBig, negative, altered, forged].map((event) => client.ok(event.id)),
    );
    expect(answers.map((answer) => answer.slice(2))).toEqual([
      [false, expect.stringMatching(/^invalid: /)],
      [false, expect.stringMatching(/^invalid: /)],
      [false, 'invalid: bad event id'],
      [false, 'invalid: bad signature'],
    ]);
    client.send('REQ', 'all', {});
    const stored = await client.stored('all');
    expect(stored).toEqual([]);
  });

  it('counts the byte allowance in bytes, not in characters', async () => {
    // 64 KiB a minute; each note is 10,000 characters of 3 bytes (about 30 KB on the wire): two fit.
    const client = await start({ limits: { maxEventBytesPerMinute: 64 * 1024 }, rateExempt: [] });
    const key = newKey();
    const notes = Array.from({ length: 4 }, (_, i) =>
      signEvent(key, { kind: 1, content: `${i}`.padEnd(10_000, '€') }),
    );
    for (const note of notes) client.send('EVENT', note);
    const answers = await Promise.all(notes.map((note) => client.ok(note.id)));
    const bytes = Buffer.byteLength(JSON.stringify(['EVENT', notes[0]]));
    expect(bytes * 2).toBeLessThan(64 * 1024);
    expect(bytes * 3).toBeGreaterThan(64 * 1024);
    expect(answers.map((answer) => answer[2])).toEqual([true, true, false, false]);
    expect(answers[2]![3]).toMatch(/^rate-limited: /);
  });

  it('counts an IPv6 /64 behind a trusted proxy as one stranger', async () => {
    // The machine has one IPv6 address besides ::1: the addresses come from the proxy's X-Forwarded-For.
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    relay = await startEmbeddedRelay({
      host: '127.0.0.1',
      port: 0,
      trustedProxies: ['127.0.0.1'],
      limits: { maxEventsPerMinute: 3, maxConnectionsPerAddress: 2 },
    });
    const first = await behindProxy(relay.url, '2001:db8:1:2::1');
    const second = await behindProxy(relay.url, '2001:db8:1:2:ffff:ffff:ffff:fffe');
    const neighbour = await behindProxy(relay.url, '2001:db8:1:3::1');
    clients.push(first, second, neighbour);
    const key = newKey();
    const note = (label: string) => signEvent(key, { kind: 1, content: label });

    // Events a minute: three for the /64, whichever of its addresses sends them.
    const answers: unknown[][] = [];
    for (const [client, label] of [
      [first, 'a1'],
      [second, 'b1'],
      [first, 'a2'],
      [second, 'b2'],
    ] as const) {
      const event = note(label);
      client.send('EVENT', event);
      answers.push(await client.ok(event.id));
    }
    expect(answers.map((answer) => answer[2])).toEqual([true, true, true, false]);
    expect(answers[3]![3]).toMatch(/^rate-limited: /);
    // The next /64 has its own allowance.
    const next = note('c1');
    neighbour.send('EVENT', next);
    expect((await neighbour.ok(next.id))[2]).toBe(true);

    // Connections: two for the /64; a third address of it is refused with 1008.
    const third = await behindProxy(relay.url, '2001:db8:1:2::abcd');
    clients.push(third);
    await waitFor(() => third.closeCode !== null);
    expect(third.closeCode).toBe(1008);

    // A peer that is not a trusted proxy cannot pick its address with the header (here, to make the
    // exhausted /64 pay for it): its own address is counted, whose allowances are untouched.
    const spoofer = await Stranger.wrap(
      new WebSocket(relay.url, {
        localAddress: '127.0.40.2',
        headers: { 'X-Forwarded-For': '2001:db8:1:2::1' },
      }),
    );
    clients.push(spoofer);
    const own = note('own');
    spoofer.send('EVENT', own);
    expect((await spoofer.ok(own.id))[2]).toBe(true);
    expect(spoofer.closeCode).toBeNull();
  });

  it('counts an address however the proxy spells it', async () => {
    relay = await startEmbeddedRelay({
      host: '127.0.0.1',
      port: 0,
      trustedProxies: ['127.0.0.1'],
      limits: { maxConnectionsPerAddress: 1 },
    });
    for (const [held, other] of [
      ['198.51.100.7', '::ffff:198.51.100.7'],
      ['2001:DB8:1:2:0:0:0:1', '2001:db8:1:2::2'],
    ]) {
      const first = await behindProxy(relay.url, held!);
      const second = await behindProxy(relay.url, other!);
      clients.push(first, second);
      await waitFor(() => second.closeCode !== null);
      expect(second.closeCode).toBe(1008);
      expect(first.closeCode).toBeNull();
    }
  });
});
