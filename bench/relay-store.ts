/**
 * LMDB event store benchmark: `node --import tsx bench/relay-store.ts` (BENCH_EVENTS=200000 by default).
 * Fills stores in a temp dir with real signed events, then measures opening (after close, 10,000 and all
 * events) and queries answering 500 events from the full store. Signing 200,000 events takes about a minute
 * the first time; they are cached as JSON lines under the OS temp dir for later runs.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Filter, NostrEvent } from 'nostr-tools';
import { bytesToHex } from '@noble/hashes/utils.js';
import { finalizeEvent, generateSecretKey, getPublicKey, setNostrWasm } from 'nostr-tools/wasm';
import { initNostrWasm } from 'nostr-wasm/gzipped';
import type { EventStore } from '../src/relay/store/event-store.js';
import { openLmdbEventStore } from '../src/relay/store/lmdb-event-store.js';

const TOTAL = Number(process.env.BENCH_EVENTS ?? 200_000);
const SMALL = Math.min(10_000, TOTAL);
const AUTHORS = 1_000;
const TOPICS = 200;
const START = 1_600_000_000;
const KINDS = [1, 1, 1, 7, 7, 6, 1111];
const CACHE = join(tmpdir(), `relay-store-bench-${TOTAL}-v1.jsonl`);

async function signedEvents(): Promise<NostrEvent[]> {
  if (existsSync(CACHE)) {
    const events: NostrEvent[] = [];
    for await (const line of createInterface({
      input: createReadStream(CACHE, 'utf8'),
      crlfDelay: Infinity,
    })) {
      if (line) events.push(JSON.parse(line) as NostrEvent);
    }
    if (events.length === TOTAL) return events;
  }
  setNostrWasm(await initNostrWasm());
  const keys = Array.from({ length: AUTHORS }, () => generateSecretKey());
  const pubkeys = keys.map((key) => getPublicKey(key));
  const events: NostrEvent[] = [];
  const started = performance.now();
  for (let i = 0; i < TOTAL; i++) {
    const tags = [
      ['t', `topic-${i % TOPICS}`],
      ['p', pubkeys[(i * 7) % AUTHORS] as string],
    ];
    if (i % 3 === 0) tags.push(['e', bytesToHex(crypto.getRandomValues(new Uint8Array(32)))]);
    const template = {
      kind: KINDS[i % KINDS.length] as number,
      created_at: START + i * 10,
      tags,
      content: `#${i}`,
    };
    events.push(finalizeEvent(template as never, keys[i % AUTHORS] as Uint8Array) as NostrEvent);
    if (i % 20_000 === 19_999)
      console.error(`signed ${i + 1} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const out = createWriteStream(`${CACHE}.part`);
  for (const event of events) out.write(`${JSON.stringify(event)}\n`);
  await new Promise((resolve) => out.end(resolve));
  await rename(`${CACHE}.part`, CACHE);
  return events;
}

async function fill(path: string, events: NostrEvent[]): Promise<number> {
  const store = await openLmdbEventStore({ path, maxEvents: TOTAL });
  const started = performance.now();
  for (let i = 0; i < events.length; i += 2_000) {
    await Promise.all(events.slice(i, i + 2_000).map((event) => store.put(event)));
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return events.length / seconds;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Opening after close: each run opens the environment anew (the OS page cache stays warm). */
async function timeOpen(path: string, runs = 7): Promise<{ p50: number; max: number; events: number }> {
  const times: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const store = await openLmdbEventStore({ path });
    events = store.health().events;
    times.push(performance.now() - started);
    await store.close();
  }
  return { p50: percentile(times, 50), max: Math.max(...times), events };
}

function timeQuery(store: EventStore, filter: Filter, runs = 30) {
  const times: number[] = [];
  let returned = 0;
  store.query([filter], 500); // warm-up
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    returned = store.query([filter], 500).length;
    times.push(performance.now() - started);
  }
  return { returned, p50: percentile(times, 50), p95: percentile(times, 95) };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const dir = await mkdtemp(join(tmpdir(), 'relay-store-bench-'));
try {
  const events = await signedEvents();
  const smallPath = join(dir, 'small');
  const fullPath = join(dir, 'full');
  await fill(smallPath, events.slice(0, SMALL));
  const rate = await fill(fullPath, events);
  const size = (await stat(join(fullPath, 'data.mdb'))).size;
  console.log(
    `filled ${TOTAL} events at ${rate.toFixed(0)} events/s, data.mdb ${(size / 2 ** 20).toFixed(0)} MiB`,
  );

  const opens = [
    { store: `${SMALL} events`, ...(await timeOpen(smallPath)) },
    { store: `${TOTAL} events`, ...(await timeOpen(fullPath)) },
  ];
  console.log('\nopen after close (7 runs)');
  console.table(opens.map((o) => ({ store: o.store, counter: o.events, p50: ms(o.p50), max: ms(o.max) })));

  const pubkeys = [...new Set(events.slice(0, AUTHORS).map((e) => e.pubkey))];
  const mid = START + TOTAL * 5;
  const filters: Array<[string, Filter]> = [
    ['kinds', { kinds: [1] }],
    ['authors+kinds (50 authors)', { authors: pubkeys.slice(0, 50), kinds: [1, 7] }],
    ['#t', { '#t': ['topic-42'] }],
    ['since/until window', { since: mid, until: mid + 10_000 }],
    ['#p + kinds', { '#p': pubkeys.slice(0, 5), kinds: [1, 7, 6, 1111] }],
  ];
  const store = await openLmdbEventStore({ path: fullPath });
  console.log(`\nquery, limit 500, over ${store.health().events} events (30 runs each)`);
  console.table(
    filters
      .map(([name, filter]) => ({ filter: name, ...timeQuery(store, filter) }))
      .map((r) => ({
        filter: r.filter,
        returned: r.returned,
        p50: ms(r.p50),
        p95: ms(r.p95),
      })),
  );
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
