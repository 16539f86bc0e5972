import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedRelay, type EmbeddedRelay } from '../relay/embedded-relay.js';
import { newKey, signEvent } from '../../test/helpers/nostr.js';
import { fetchPaged, openRelay } from './connect.js';

describe('fetchPaged', () => {
  let relay: EmbeddedRelay | undefined;
  afterEach(async () => relay?.close());

  it('takes a backlog larger than one answer a page at a time, each event once, same seconds included', async () => {
    relay = await startEmbeddedRelay({ host: '127.0.0.1', port: 0 });
    const key = newKey();
    const base = Math.floor(Date.now() / 1000) - 3_600;
    // 25 notes over 9 seconds: pages of 10 end inside a second, which the next page asks again.
    const notes = Array.from({ length: 25 }, (_, i) =>
      signEvent(key, { kind: 1, content: `backlog ${i}`, created_at: base + Math.floor(i / 3) }),
    );
    for (const note of notes) await relay.store.put(note);
    const link = await openRelay(relay.url);
    try {
      const got: string[] = [];
      const pages: number[] = [];
      await fetchPaged(
        link,
        { kinds: [1] },
        async (page) => {
          pages.push(page.length);
          // The next page waits for this one to be handled.
          await new Promise((resolve) => setTimeout(resolve, 20));
          got.push(...page.map((event) => event.id));
        },
        10,
      );
      expect(pages.every((size) => size <= 10)).toBe(true);
      expect(got).toHaveLength(25);
      expect(new Set(got)).toEqual(new Set(notes.map((note) => note.id)));
    } finally {
      link.close();
    }
  });
});
