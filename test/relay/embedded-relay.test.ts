import { finalizeEvent, type EventTemplate, type NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startEmbeddedRelay,
  type EmbeddedRelay,
  type EmbeddedRelayOptions,
} from '../../src/relay/embedded-relay.js';
import { newKey, signEvent, type TestKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { RawClient } from './raw-client.js';

const station = newKey();
const now = () => Math.floor(Date.now() / 1000);

const authEvent = (key: TestKey, relay: string, challenge: string, extra: Partial<EventTemplate> = {}) =>
  signEvent(key, {
    kind: 22242,
    tags: [
      ['relay', relay],
      ['challenge', challenge],
    ],
    ...extra,
  });

describe('embedded relay: NIP-42 and private login answers', () => {
  let relay: EmbeddedRelay;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await relay.close();
  });

  async function start(options: Partial<EmbeddedRelayOptions> = {}) {
    relay = await startEmbeddedRelay({
      host: '127.0.0.1',
      port: 0,
      privilegedPubkeys: [station.hex],
      ...options,
    });
  }
  async function connect(): Promise<RawClient> {
    const client = await RawClient.connect(relay.url);
    clients.push(client);
    await client.next((frame) => frame[0] === 'AUTH');
    return client;
  }
  async function authenticate(client: RawClient, key: TestKey): Promise<unknown[]> {
    const event = authEvent(key, relay.url, client.challenge);
    client.send('AUTH', event);
    return client.ok(event.id);
  }

  it('authenticates through nostr-tools onauth', async () => {
    await start();
    const client = await Relay.connect(relay.url);
    const key = newKey();
    client.onauth = async (template: EventTemplate) => finalizeEvent(template, key.sk);
    await waitFor(() => (client as unknown as { challenge?: string }).challenge !== undefined);
    await expect(client.auth(async (template) => finalizeEvent(template, key.sk))).resolves.toBeDefined();
    client.close();
  });

  it('refuses AUTH with a wrong challenge, relay or kind, or a bad signature', async () => {
    await start();
    const client = await connect();
    const key = newKey();
    const cases: NostrEvent[] = [
      authEvent(key, relay.url, 'not-the-challenge'),
      authEvent(key, 'wss://elsewhere.example', client.challenge),
      signEvent(key, {
        kind: 1,
        tags: [
          ['relay', relay.url],
          ['challenge', client.challenge],
        ],
      }),
      authEvent(key, relay.url, client.challenge, { created_at: now() - 3_600 }),
      { ...authEvent(key, relay.url, client.challenge), pubkey: newKey().hex },
    ];
    for (const event of cases) {
      client.send('AUTH', event);
      const answer = await client.ok(event.id);
      expect(answer[2]).toBe(false);
      expect(answer[3]).toMatch(/^invalid: /);
    }
  });

  it('delivers kind 22242 only to the station', async () => {
    await start();
    const stranger = await connect();
    stranger.send('REQ', 'logins', { kinds: [22242] });
    expect((await stranger.closed('logins'))[2]).toMatch(/^auth-required: /);
    expect((await authenticate(stranger, newKey()))[2]).toBe(true);
    stranger.send('REQ', 'logins2', { kinds: [22242] });
    expect((await stranger.closed('logins2'))[2]).toMatch(/^restricted: /);
    stranger.send('REQ', 'everything', {});

    const bot = await connect();
    expect((await authenticate(bot, station))[2]).toBe(true);
    bot.send('REQ', 'bot', { kinds: [1, 22242] });
    await bot.stored('bot');

    const user = newKey();
    const login = authEvent(user, relay.url, 'station-issued-challenge');
    const publisher = await connect();
    publisher.send('EVENT', login);
    expect((await publisher.ok(login.id))[2]).toBe(true);
    const note = signEvent(user, { kind: 1, content: 'after the login' });
    publisher.send('EVENT', note);
    await publisher.ok(note.id);

    await bot.next((frame) => frame[0] === 'EVENT' && (frame[2] as NostrEvent).id === login.id);
    await stranger.next((frame) => frame[0] === 'EVENT' && (frame[2] as NostrEvent).id === note.id);
    expect(
      stranger.frames.some((frame) => frame[0] === 'EVENT' && (frame[2] as NostrEvent).kind === 22242),
    ).toBe(false);
  });

  it('serves a NIP-11 document that lists only what it implements', async () => {
    await start({ limits: { maxLimit: 42 } });
    const response = await fetch(relay.url.replace('ws:', 'http:'), {
      headers: { accept: 'application/nostr+json' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const document = (await response.json()) as {
      supported_nips: number[];
      limitation: Record<string, unknown>;
    };
    expect(document.supported_nips).toEqual([1, 9, 11, 40, 42, 77]);
    expect(document.limitation).toMatchObject({
      max_limit: 42,
      auth_required: false,
      created_at_upper_limit: 900,
    });
    expect(document).toMatchObject({ pubkey: station.hex });
  });
});
