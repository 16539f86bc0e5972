import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { NostrEvent } from 'nostr-tools';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/wasm';
import '../src/nostr/verify.js'; // loads nostr-wasm, which nostr-tools/wasm signs with
import type { EventStore } from '../src/relay/store/event-store.js';

const DAY = 86_400;

/**
 * `count` signed events as a station gathers them over a month: notes, reactions and profiles of 200 authors,
 * 1% of them from the last day. Signing 200,000 events takes about a minute and a half here, so they are kept
 * in the OS temp directory between runs.
 */
export async function benchEvents(count: number): Promise<NostrEvent[]> {
  const path = join(tmpdir(), `station-bench-events-${count}-v2.jsonl`);
  // The last day's share must still be recent: a cache older than a few hours is made again.
  const age = await stat(path).then(
    (info) => Date.now() - info.mtimeMs,
    () => Infinity,
  );
  if (age < 6 * 3_600_000) return readEvents(path);
  const keys = Array.from({ length: 200 }, () => generateSecretKey());
  const now = Math.floor(Date.now() / 1000);
  const out = createWriteStream(path);
  const events: NostrEvent[] = [];
  for (let i = 0; i < count; i++) {
    const recent = i % 100 === 0;
    const created_at = recent ? now - 3_600 + Math.floor(i / 100) : now - 2 * DAY - (i % (28 * DAY));
    const kind = i % 10 === 0 ? 7 : 1;
    const tags =
      kind === 7
        ? [
            ['e', 'a'.repeat(64)],
            ['p', 'b'.repeat(64)],
          ]
        : [['t', `topic${i % 50}`]];
    const event = finalizeEvent(
      { kind, created_at, tags, content: kind === 7 ? '+' : `note ${i}` },
      keys[i % keys.length]!,
    );
    const plain = { ...event };
    events.push(plain);
    if (!out.write(`${JSON.stringify(plain)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return events;
}

async function readEvents(path: string): Promise<NostrEvent[]> {
  const events: NostrEvent[] = [];
  for await (const line of createInterface({ input: createReadStream(path) })) events.push(JSON.parse(line));
  return events;
}

/** Writes events straight into a store (they were signed here: nothing to verify), in batches. */
export async function fillStore(store: EventStore, events: NostrEvent[], batch = 2_000): Promise<void> {
  for (let i = 0; i < events.length; i += batch)
    await Promise.all(events.slice(i, i + batch).map((e) => store.put(e)));
}

/**
 * The environment of the built service as the relay benchmarks run it: its own embedded relay on `relayPort`,
 * no rate limit on the API, and the station's own event-loop guard (startService turns it off for tests):
 * measured as operators run it.
 */
export function relayBenchEnv(home: string, relayPort: number, extra: Record<string, string> = {}) {
  return {
    HOME: home,
    HOST: '127.0.0.1',
    PORT: '0',
    RELAY_URL: `ws://127.0.0.1:${relayPort}`,
    EMBEDDED_RELAY: 'on',
    IPFS_GATEWAY: 'http://127.0.0.1:0',
    RATE_LIMIT_MAX: '1000000',
    OVERLOAD_MAX_EVENT_LOOP_DELAY: '1000',
    ...(process.env.RELAY_SIGNATURE_THREADS && {
      RELAY_SIGNATURE_THREADS: process.env.RELAY_SIGNATURE_THREADS,
    }),
    ...extra,
  };
}
