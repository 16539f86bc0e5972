import { finalizeEvent, nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { publishAll } from '../streams/payment-harness.js';
import { health, startTestStation, stopTestStation, storedAt, type TestStation } from './stations.js';

const now = () => Math.floor(Date.now() / 1000);

describe('two stations in a swarm (SWARM_RELAYS)', () => {
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  let first: TestStation;
  let second: TestStation;
  const author = newKey();
  const notes = Array.from({ length: 50 }, (_, i) =>
    signEvent(author, { kind: 1, content: `note ${i}`, created_at: now() - 100 + i }),
  );

  beforeAll(async () => {
    dirs.push(await tempDir('swarm-a-'), await tempDir('swarm-b-'));
    first = await startTestStation(dirs[0]!.path);
    await publishAll(first.relayUrl, notes);
    second = await startTestStation(dirs[1]!.path, { SWARM_RELAYS: first.relayUrl });
  });
  afterAll(async () => {
    for (const station of [first, second]) if (station) await stopTestStation(station);
    for (const dir of dirs) await dir.cleanup();
  });

  it("brings the first station's notes to the second, and new notes both ways", async () => {
    const ids = (events: { id: string }[]) => new Set(events.map((event) => event.id));
    await waitFor(async () => ids(await storedAt(second, { authors: [author.hex] })).size >= notes.length);
    expect(ids(await storedAt(second, { authors: [author.hex] }))).toEqual(ids(notes));
    const sister = (await health(second.url)).swarm[0]!;
    expect(sister).toMatchObject({ url: first.relayUrl, method: 'nip77' });
    expect(sister.events_in).toBeGreaterThanOrEqual(notes.length);
    expect(sister.last_sync_at).not.toBeNull();

    const fromFirst = signEvent(newKey(), { kind: 1, content: 'live from the first' });
    const fromSecond = signEvent(newKey(), { kind: 1, content: 'live from the second' });
    await publish(first.relayUrl, fromFirst);
    await publish(second.relayUrl, fromSecond);
    await waitFor(async () => (await storedAt(second, { ids: [fromFirst.id] })).length === 1);
    await waitFor(async () => (await storedAt(first, { ids: [fromSecond.id] })).length === 1);
  });

  it('keeps logins (kind 22242) where they were made', async () => {
    const user = (await (
      await fetch(`${first.url}/g1nostr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'swarm@example.org' }),
      })
    ).json()) as { npub: string; nsec: string };
    const { challenge } = (await (
      await fetch(`${first.url}/api/nip42/challenge?npub=${user.npub}`)
    ).json()) as { challenge: string };
    const sk = nip19.decode(user.nsec).data as Uint8Array;
    const login = finalizeEvent(
      {
        kind: 22242,
        created_at: now(),
        tags: [
          ['relay', first.relayUrl],
          ['challenge', challenge],
        ],
        content: '',
      },
      sk,
    );
    // Ephemeral (NIP-16): the first station's relay delivers it live to its bot and stores it nowhere.
    await publish(first.relayUrl, login);
    const me = (url: string) => fetch(`${url}/api/me?npub=${user.npub}`);
    await waitFor(async () => (await me(first.url)).status === 200);
    // A note published after the login has crossed: the login had every chance to cross too.
    const marker = signEvent(newKey(), { kind: 1, content: 'after the login' });
    await publish(first.relayUrl, marker);
    await waitFor(async () => (await storedAt(second, { ids: [marker.id] })).length === 1);
    expect(await storedAt(second, { kinds: [22242] })).toEqual([]);
    expect((await me(second.url)).status).not.toBe(200);
  });
});
