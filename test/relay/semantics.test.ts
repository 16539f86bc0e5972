import type { Filter, NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRelay, type EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish } from '../helpers/relay.js';

const now = () => Math.floor(Date.now() / 1000);

describe('embedded relay: NIP-01 replacement, NIP-09 deletion, NIP-40 expiration', () => {
  let relay: EmbeddedRelay;
  beforeAll(async () => {
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => relay.close());

  async function query(filter: Filter): Promise<NostrEvent[]> {
    const client = await Relay.connect(relay.url);
    const events: NostrEvent[] = [];
    await new Promise<void>((resolve) => {
      const sub = client.subscribe([filter], {
        onevent: (e) => events.push(e),
        oneose: () => (sub.close(), resolve()),
      });
    });
    client.close();
    return events;
  }

  it('keeps the newest replaceable event, whatever the order of arrival', async () => {
    const key = newKey();
    await publish(relay.url, signEvent(key, { kind: 0, content: 'middle', created_at: now() - 10 }));
    await publish(relay.url, signEvent(key, { kind: 0, content: 'newest', created_at: now() }));
    await publish(relay.url, signEvent(key, { kind: 0, content: 'oldest', created_at: now() - 20 }));
    expect((await query({ kinds: [0], authors: [key.hex] })).map((e) => e.content)).toEqual(['newest']);
  });

  it('keeps one addressable event per d tag', async () => {
    const key = newKey();
    await publish(
      relay.url,
      signEvent(key, { kind: 30_023, tags: [['d', 'a']], content: 'a1', created_at: now() - 5 }),
    );
    await publish(relay.url, signEvent(key, { kind: 30_023, tags: [['d', 'a']], content: 'a2' }));
    await publish(relay.url, signEvent(key, { kind: 30_023, tags: [['d', 'b']], content: 'b1' }));
    const kept = await query({ kinds: [30_023], authors: [key.hex] });
    expect(kept.map((e) => e.content).sort()).toEqual(['a2', 'b1']);
  });

  it('deletes by e tag, only the author’s own events, and refuses them afterwards', async () => {
    const [author, other] = [newKey(), newKey()];
    const note = signEvent(author, { kind: 1, content: 'to delete', created_at: now() - 5 });
    const othersNote = signEvent(other, { kind: 1, content: 'not mine', created_at: now() - 5 });
    await publish(relay.url, note);
    await publish(relay.url, othersNote);
    await publish(
      relay.url,
      signEvent(author, {
        kind: 5,
        tags: [
          ['e', note.id],
          ['e', othersNote.id],
        ],
      }),
    );
    expect(await query({ ids: [note.id] })).toEqual([]);
    expect(await query({ ids: [othersNote.id] })).toHaveLength(1);
    await expect(publish(relay.url, note)).rejects.toThrow(/^blocked: /);
  });

  it('deletes by a tag every version up to the deletion, not later ones', async () => {
    const author = newKey();
    const coordinate = `30023:${author.hex}:post`;
    await publish(
      relay.url,
      signEvent(author, { kind: 30_023, tags: [['d', 'post']], content: 'v1', created_at: now() - 10 }),
    );
    await publish(
      relay.url,
      signEvent(author, { kind: 5, tags: [['a', coordinate]], created_at: now() - 5 }),
    );
    expect(await query({ kinds: [30_023], authors: [author.hex] })).toEqual([]);
    await expect(
      publish(
        relay.url,
        signEvent(author, { kind: 30_023, tags: [['d', 'post']], content: 'v0', created_at: now() - 8 }),
      ),
    ).rejects.toThrow(/^blocked: /);
    await publish(
      relay.url,
      signEvent(author, { kind: 30_023, tags: [['d', 'post']], content: 'v2', created_at: now() }),
    );
    expect((await query({ kinds: [30_023], authors: [author.hex] })).map((e) => e.content)).toEqual(['v2']);
  });

  it('refuses an expired event and stops serving one when it expires', async () => {
    const key = newKey();
    await expect(
      publish(relay.url, signEvent(key, { kind: 1, tags: [['expiration', String(now() - 1)]] })),
    ).rejects.toThrow(/^invalid: .*expired/);
    const soon = signEvent(key, { kind: 1, tags: [['expiration', String(now() + 2)]], content: 'brief' });
    await publish(relay.url, soon);
    expect(await query({ ids: [soon.id] })).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect(await query({ ids: [soon.id] })).toEqual([]);
  });

  it('broadcasts ephemeral events without storing them', async () => {
    const key = newKey();
    const listener = await Relay.connect(relay.url);
    const seen: NostrEvent[] = [];
    await new Promise<void>((resolve) =>
      listener.subscribe([{ kinds: [20_001] }], { onevent: (e) => seen.push(e), oneose: resolve }),
    );
    const ephemeral = signEvent(key, { kind: 20_001, content: 'now only' });
    await publish(relay.url, ephemeral);
    await expect.poll(() => seen.length).toBe(1);
    listener.close();
    expect(await query({ kinds: [20_001] })).toEqual([]);
  });
});
