import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { nip19, type NostrEvent } from 'nostr-tools';
import { finalizeEvent } from 'nostr-tools/wasm';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/nostr/verify.js';
import { openLmdbEventStore } from '../../src/relay/store/lmdb-event-store.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { RawClient } from '../relay/raw-client.js';
import { freePort, ServiceFleet } from './service-process.js';

const STORED = 200_000;
const RECENT = 2_000;
const now = () => Math.floor(Date.now() / 1000);

interface Health {
  status: string;
  relay: string;
  relay_store: { ok: boolean; events: number } | null;
  nostr_verification: { checks: number; cache_hits: number };
}

/**
 * Months of events: most are older than the bot's back-fill window, and were never signed here (the store
 * holds what its relay verified when writing: start-up must not look at them); the last day's are real.
 */
async function fillStore(path: string): Promise<NostrEvent[]> {
  const store = await openLmdbEventStore({ path, maxEvents: STORED * 2 });
  const author = newKey();
  const recent = Array.from({ length: RECENT }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: now() - 3_600 + i, tags: [], content: `recent ${i}` }, author.sk),
  );
  const old = Array.from({ length: STORED - RECENT }, (_, i) => ({
    id: randomBytes(32).toString('hex'),
    pubkey: author.hex,
    created_at: now() - 3 * 86_400 - i,
    kind: 1,
    tags: [['t', `topic${i % 100}`]],
    content: `old ${i}`,
    sig: randomBytes(64).toString('hex'),
  }));
  const all: NostrEvent[] = [...old, ...recent.map((event) => ({ ...event }))];
  for (let i = 0; i < all.length; i += 5_000)
    await Promise.all(all.slice(i, i + 5_000).map((e) => store.put(e)));
  await store.close();
  return recent;
}

describe('a station with 200,000 stored events', () => {
  const fleet = new ServiceFleet();
  afterEach(() => fleet.cleanup());

  it('starts without verifying stored signatures, and after a SIGKILL keeps every acknowledged event and login', async () => {
    const dir = await fleet.dir();
    const dataRoot = join(dir.path, 'game');
    await fillStore(join(dataRoot, 'relay', 'store'));
    const relayUrl = `ws://127.0.0.1:${await freePort()}`;
    const env = {
      HOME: dir.path,
      DATA_ROOT: dataRoot,
      HOST: '127.0.0.1',
      PORT: '0',
      RELAY_URL: relayUrl,
      EMBEDDED_RELAY: 'on',
      IPFS_GATEWAY: 'http://127.0.0.1:0',
      RELAY_MAX_EVENTS: String(STORED * 2),
    };
    const start = async () => {
      const { service, url } = await fleet.start(env);
      const health = async () => (await (await fetch(`${url}/health`)).json()) as Health;
      return { service, url, health };
    };

    const first = await start();
    // The bot's back-fill (the last day: the 2,000 recent events) comes from the store: nothing to verify.
    await waitFor(async () => (await first.health()).nostr_verification.cache_hits >= RECENT);
    const afterStart = await first.health();
    // The only signatures checked are fresh ones: the bot's own NIP-42 answer (one per connection).
    expect(afterStart.nostr_verification.checks).toBeLessThanOrEqual(2);
    expect(afterStart.relay_store).toMatchObject({ ok: true, events: STORED });

    // Events acknowledged with OK true, then a login observed on the relay.
    const client = await RawClient.connect(relayUrl);
    const key = newKey();
    const fresh = Array.from({ length: 117 }, (_, i) => signEvent(key, { kind: 1, content: `fresh ${i}` }));
    for (const event of fresh) client.send('EVENT', event);
    for (const event of fresh) expect((await client.ok(event.id))[2]).toBe(true);
    const user = (await (
      await fetch(`${first.url}/g1nostr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'restart@example.org' }),
      })
    ).json()) as { npub: string; nsec: string };
    const { challenge } = (await (
      await fetch(`${first.url}/api/nip42/challenge?npub=${user.npub}`)
    ).json()) as {
      challenge: string;
    };
    const sk = nip19.decode(user.nsec).data as Uint8Array;
    const login = finalizeEvent(
      {
        kind: 22242,
        created_at: now(),
        tags: [
          ['relay', relayUrl],
          ['challenge', challenge],
        ],
        content: '',
      },
      sk,
    );
    client.send('EVENT', login);
    expect((await client.ok(login.id))[2]).toBe(true);
    client.close();
    const me = (url: string) => fetch(`${url}/api/me?npub=${user.npub}`);
    await waitFor(async () => (await me(first.url)).status === 200);

    first.service.child.kill('SIGKILL');
    await first.service.exited;

    const second = await start();
    expect((await me(second.url)).status).toBe(200);
    const reader = await RawClient.connect(relayUrl);
    reader.send('REQ', 'fresh', { ids: fresh.map((event) => event.id) });
    expect(await reader.stored('fresh')).toHaveLength(fresh.length);
    reader.close();
    expect((await second.health()).relay_store?.events).toBe(STORED + fresh.length);
  }, 300_000);
});
