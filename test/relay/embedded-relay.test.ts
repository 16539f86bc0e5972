import { join } from 'node:path';
import { Relay } from 'nostr-tools/relay';
import type { Filter, NostrEvent } from 'nostr-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';

async function query(url: string, filter: Filter): Promise<NostrEvent[]> {
  const relay = await Relay.connect(url);
  const events: NostrEvent[] = [];
  await new Promise<void>((resolve) => {
    const sub = relay.subscribe([filter], {
      onevent: (e) => events.push(e),
      oneose: () => (sub.close(), resolve()),
    });
  });
  relay.close();
  return events;
}

describe('embedded relay', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay;
  beforeEach(async () => {
    dir = await tempDir();
    relay = await startTestRelay({ persistPath: join(dir.path, 'events.jsonl') });
  });
  afterEach(async () => {
    await relay.close();
    await dir.cleanup();
  });

  it('passes kind 22242 events to live subscribers, as strfry does', async () => {
    const listener = await Relay.connect(relay.url);
    const seen: NostrEvent[] = [];
    listener.subscribe([{ kinds: [22242] }], { onevent: (e) => seen.push(e) });
    const auth = signEvent(newKey(), { kind: 22242, tags: [['relay', relay.url]] });
    await publish(relay.url, auth);
    await waitFor(() => seen.length === 1);
    expect(seen[0]!.id).toBe(auth.id);
    listener.close();
    expect(await query(relay.url, { kinds: [22242] })).toEqual([]); // ephemeral: never stored
  });

  it('refuses a kind 22242 event with a bad signature', async () => {
    const event = signEvent(newKey(), { kind: 22242 });
    const forged = { ...JSON.parse(JSON.stringify(event)), content: 'changed' };
    await expect(publish(relay.url, forged)).rejects.toThrow(/invalid/);
  });

  it('keeps only the newest replaceable event', async () => {
    const key = newKey();
    const now = Math.floor(Date.now() / 1000);
    await publish(relay.url, signEvent(key, { kind: 0, content: '{"name":"old"}', created_at: now - 10 }));
    await publish(relay.url, signEvent(key, { kind: 0, content: '{"name":"new"}', created_at: now }));
    await publish(relay.url, signEvent(key, { kind: 0, content: '{"name":"older"}', created_at: now - 20 }));
    const profiles = await query(relay.url, { kinds: [0], authors: [key.hex] });
    expect(profiles.map((e) => e.content)).toEqual(['{"name":"new"}']);
  });

  it('keeps stored events and deletions across a restart', async () => {
    const key = newKey();
    const kept = signEvent(key, { kind: 1, content: 'kept' });
    const deleted = signEvent(key, { kind: 1, content: 'deleted' });
    await publish(relay.url, kept);
    await publish(relay.url, deleted);
    await publish(relay.url, signEvent(key, { kind: 5, tags: [['e', deleted.id]] }));
    const port = relay.port;
    await relay.close();
    relay = await startTestRelay({ port, persistPath: join(dir.path, 'events.jsonl') });
    const notes = await query(relay.url, { kinds: [1], authors: [key.hex] });
    expect(notes.map((e) => e.content)).toEqual(['kept']);
  });

  it('keeps events published after a restart across the next restart', async () => {
    const key = newKey();
    await publish(relay.url, signEvent(key, { kind: 1, content: 'first life' }));
    const port = relay.port;
    const persistPath = join(dir.path, 'events.jsonl');
    await relay.close();
    relay = await startTestRelay({ port, persistPath });
    await publish(relay.url, signEvent(key, { kind: 1, content: 'second life' }));
    await relay.close();
    relay = await startTestRelay({ port, persistPath });
    const notes = await query(relay.url, { kinds: [1], authors: [key.hex] });
    expect(notes.map((e) => e.content).sort()).toEqual(['first life', 'second life']);
  });

  it('answers NIP-11 relay information over HTTP', async () => {
    const res = await fetch(relay.url.replace('ws:', 'http:'), {
      headers: { accept: 'application/nostr+json' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { supported_nips: number[] }).supported_nips).toContain(42);
  });
});

describe('embedded relay freshness', () => {
  it('answers a REQ repeated within a second with events stored in between', async () => {
    const relay = await startTestRelay();
    try {
      const key = newKey();
      const filter = { kinds: [1], authors: [key.hex] };
      expect(await query(relay.url, filter)).toEqual([]);
      await publish(relay.url, signEvent(key, { kind: 1, content: 'fresh' }));
      expect((await query(relay.url, filter)).map((e) => e.content)).toEqual(['fresh']);
    } finally {
      await relay.close();
    }
  });
});
