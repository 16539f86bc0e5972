import ngeohash from 'ngeohash';
import { nip19, verifyEvent, type NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { StationView } from '../../src/view/station-view.js';
import { startStreams } from '../../streams/index.js';
import type { RelayClient } from '../../streams/relay-client.js';
import { installNostrExtension, openPage } from '../helpers/browser.js';
import { newKey, signEvent, type TestKey } from '../helpers/nostr.js';
import { connectedClient, publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { gotoPage, startPageServer, unexpected, type PageServer } from './harness.js';

/**
 * The geo-message page against a real relay: the page publishes over WebSocket, the station's relay client
 * and streams file the note in the station view, and the page lists it from /api/geo/messages.
 */
describe('the geo-message page', () => {
  let relay: EmbeddedRelay;
  let client: RelayClient;
  let view: StationView;
  let s: PageServer;
  let streams: Subscription;
  let listener: Relay;
  const received: NostrEvent[] = [];

  beforeAll(async () => {
    relay = await startTestRelay();
    client = await connectedClient(relay.url, Math.floor(Date.now() / 1000) - 60);
    view = new StationView();
    s = await startPageServer({ relay: client, view });
    streams = startStreams({ client, auth: s.t.deps.auth, view });
    // Any NOSTR client subscribed to the relay: what the page publishes must reach it.
    listener = await Relay.connect(relay.url);
    listener.subscribe([{ kinds: [1] }], { onevent: (event) => void received.push(event) });
  });
  afterAll(async () => {
    listener?.close();
    streams?.unsubscribe();
    await s?.close();
    await client?.stop();
    await relay?.close();
  });

  const note = (key: TestKey, content: string, lat: string, lon: string) =>
    signEvent(key, {
      kind: 1,
      content,
      tags: [
        ['latitude', lat],
        ['longitude', lon],
      ],
    });

  async function receivedFrom(pubkey: string): Promise<NostrEvent> {
    await waitFor(() => received.some((event) => event.pubkey === pubkey));
    return received.find((event) => event.pubkey === pubkey)!;
  }

  it('signs with a typed key, publishes a kind 1 with position tags, then lists it with its neighbours', async () => {
    const neighbour = newKey();
    const near = note(neighbour, 'Marché bio place du Capitole', '43.61', '1.45');
    const far = note(neighbour, 'Paris calling', '48.85', '2.35');
    await publish(relay.url, near);
    await publish(relay.url, far);
    await waitFor(() => view.geo.size >= 2);

    const author = newKey();
    const nsec = nip19.nsecEncode(author.sk);
    const { page, problems, close } = await openPage(s.browser);
    const sent: string[] = [];
    page.on('request', (request) => sent.push(`${request.url()} ${request.postData() ?? ''}`));
    page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
    try {
      await gotoPage(page, `${s.base}/nostr?lang=en`, 'nostr-app');
      expect(await page.inputValue('#relay-url')).toBe(relay.url);
      expect(await page.isDisabled('#publish-button')).toBe(true);
      expect(await page.isHidden('#forget-key')).toBe(true);
      await page.fill('#nsec', nsec);
      await page.click('#nsec-form button[type="submit"]');
      expect(await page.textContent('#key-status')).toContain(author.npub.slice(0, 12));
      expect(await page.isHidden('#key-choices')).toBe(true);
      await page.fill('#lat', '43.6047');
      await page.fill('#lon', '1.4442');
      await page.locator(`#geo-messages li[data-id="${near.id}"]`).waitFor();
      expect(await page.locator('#geo-messages li').count()).toBe(1);

      await page.fill('#message', 'Bonjour du Capitole !\nSecond line');
      await page.click('#publish-button');
      const event = await receivedFrom(author.hex);
      expect(verifyEvent(event)).toBe(true);
      expect(event.kind).toBe(1);
      expect(event.content).toBe('Bonjour du Capitole !\nSecond line');
      expect(event.tags).toEqual([
        ['g', ngeohash.encode(43.6, 1.44, 6)],
        ['latitude', '43.60'],
        ['longitude', '1.44'],
      ]);

      const item = page.locator(`#geo-messages li[data-id="${event.id}"]`);
      await item.waitFor();
      expect(await item.locator('.content').textContent()).toBe('Bonjour du Capitole !\nSecond line');
      expect(await item.textContent()).toContain('UMAP 43.60, 1.44');
      expect(await page.getAttribute('#publish-status', 'data-event-id')).toBe(event.id);
      expect(await page.textContent('#publish-status')).toBe('Message published on the relay.');
      expect(await page.locator('#geo-messages li').count()).toBe(2);
      expect(await page.locator(`#geo-messages li[data-id="${far.id}"]`).count()).toBe(0);
      expect(view.geoMessages({ lat: 43.6, lon: 1.44 }, 0.01, 10).map((m) => m.id)).toContain(event.id);

      expect(sent.filter((line) => line.includes(nsec))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('signs through a NIP-07 extension with the browser position; markup in a message stays text', async () => {
    const author = newKey();
    const { page, problems, close } = await openPage(s.browser, {
      locale: 'fr-FR',
      init: async (context) => {
        await context.grantPermissions(['geolocation']);
        await context.setGeolocation({ latitude: 45.7578, longitude: 4.832 });
        await installNostrExtension(context, author.sk);
      },
    });
    try {
      await gotoPage(page, `${s.base}/nostr`, 'nostr-app');
      expect(await page.textContent('h1')).toBe('Géo-messages');
      await page.click('#use-extension');
      await page.locator('#forget-key').waitFor();
      await page.click('#locate');
      await page.locator('#umap[data-lat="45.76"]').waitFor({ state: 'attached' });
      await page.locator('#list-status', { hasText: 'Aucun message' }).waitFor();

      const markup = '<img src=x id=injected> & <b>gras</b>';
      await page.fill('#message', markup);
      await page.click('#publish-button');
      const event = await receivedFrom(author.hex);
      expect(event.tags).toContainEqual(['latitude', '45.76']);
      expect(event.tags).toContainEqual(['longitude', '4.83']);
      const item = page.locator(`#geo-messages li[data-id="${event.id}"]`);
      await item.waitFor();
      expect(await item.locator('.content').textContent()).toBe(markup);
      expect(await page.locator('#injected').count()).toBe(0);
      expect(await page.locator('#geo-messages b').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('explains what is missing and a relay that does not answer', async () => {
    const author = newKey();
    const { page, problems, close } = await openPage(s.browser);
    try {
      await gotoPage(page, `${s.base}/nostr?lang=en&lat=43.60&lon=1.44`, 'nostr-app');
      expect(await page.inputValue('#lat')).toBe('43.60');
      await page.fill('#nsec', 'nsec1notakey');
      await page.click('#nsec-form button[type="submit"]');
      expect(await page.textContent('#page-error')).toBe('This is not a valid nsec1… secret key.');

      await page.fill('#nsec', nip19.nsecEncode(author.sk));
      await page.click('#nsec-form button[type="submit"]');
      await page.click('#compose-form summary');
      await page.fill('#relay-url', 'http://example.org');
      await page.fill('#message', 'hello');
      await page.click('#publish-button');
      await page.locator('#page-error', { hasText: 'ws://' }).waitFor();
      expect(await page.textContent('#page-error')).toBe(
        'The relay address must start with ws:// or wss://.',
      );

      await page.fill('#relay-url', 'ws://127.0.0.1:9');
      await page.click('#publish-button');
      await page.locator('#page-error', { hasText: 'does not answer' }).waitFor();
      expect(await page.textContent('#page-error')).toBe(
        'The relay does not answer: The relay ws://127.0.0.1:9 cannot be reached.',
      );
      expect(await page.inputValue('#message')).toBe('hello');
      expect(received.some((event) => event.pubkey === author.hex)).toBe(false);
      // The browser itself logs the refused WebSocket (connect-src names the station's relays only, so a
      // relay typed in elsewhere is blocked before it is tried); nothing else may go wrong.
      expect(
        unexpected(problems, [
          /WebSocket connection to 'ws:\/\/127\.0\.0\.1:9\/' failed/,
          /Connecting to 'ws:\/\/127\.0\.0\.1:9\/' violates the following Content Security Policy directive: "connect-src 'self' /,
        ]),
      ).toEqual([]);
    } finally {
      await close();
    }
  });
});
