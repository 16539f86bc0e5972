/**
 * NIP-77 benchmark: `node --import tsx bench/negentropy.ts` (BENCH_EVENTS=100000 by default). Two embedded
 * relays on temp stores hold BENCH_EVENTS events each, 1 % of each set missing from the other. A client holding
 * relay A's ids reconciles them against relay B with nostr-tools' NegentropySync over WebSocket; beside it, a
 * full REQ transfer of relay B's set. Bytes are counted on the wire (both ways, WebSocket frames included) by a
 * TCP proxy in front of relay B.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nip77 } from 'nostr-tools';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import WebSocket from 'ws';
import { startEmbeddedRelay, type EmbeddedRelay } from '../src/relay/embedded-relay.js';
import { openLmdbEventStore } from '../src/relay/store/lmdb-event-store.js';
import { benchEvents, fillStore } from './relay-events.js';

useWebSocketImplementation(WebSocket);

const COUNT = Number(process.env.BENCH_EVENTS ?? 100_000);
const DIFF = Math.floor(COUNT / 100);

/** A TCP proxy to `port` counting the bytes it carries, both ways. */
async function countingProxy(port: number): Promise<{ server: Server; port: number; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((client) => {
    const upstream = createConnection(port, '127.0.0.1');
    client.on('data', (chunk) => (bytes += chunk.length));
    upstream.on('data', (chunk) => (bytes += chunk.length));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
  };
}

async function relayOver(dir: string, events: Parameters<typeof fillStore>[1]): Promise<EmbeddedRelay> {
  const store = await openLmdbEventStore({ path: dir, maxEvents: COUNT * 2 });
  await fillStore(store, events);
  return startEmbeddedRelay({
    host: '127.0.0.1',
    port: 0,
    store,
    limits: { maxLimit: COUNT * 2, maxNegRecords: COUNT * 2, maxNegRecordsTotal: COUNT * 4 },
  });
}

async function reconcile(url: string, storage: nip77.NegentropyStorageVector) {
  const relay = await Relay.connect(url);
  const [have, need] = [[] as string[], [] as string[]];
  const started = performance.now();
  const reason = await new Promise<string | undefined>((resolve) => {
    const sync = new nip77.NegentropySync(
      relay,
      storage,
      {},
      { onhave: (id) => have.push(id), onneed: (id) => need.push(id), onclose: resolve },
    );
    void sync.start();
  });
  const ms = performance.now() - started;
  relay.close();
  if (reason) throw new Error(`reconciliation ended: ${reason}`);
  return { ms, have: have.length, need: need.length };
}

async function fullTransfer(url: string): Promise<{ ms: number; events: number }> {
  const socket = new WebSocket(url);
  await new Promise((resolve) => socket.once('open', resolve));
  const started = performance.now();
  let events = 0;
  await new Promise<void>((resolve) => {
    socket.on('message', (data) => {
      const text = data.toString();
      if (text.startsWith('["EVENT"')) events++;
      else if (text.startsWith('["EOSE"')) resolve();
    });
    socket.send(JSON.stringify(['REQ', 'all', { limit: COUNT * 2 }]));
  });
  const ms = performance.now() - started;
  socket.close();
  return { ms, events };
}

const all = await benchEvents(COUNT + DIFF);
const [dirA, dirB] = [await mkdtemp(join(tmpdir(), 'neg-a-')), await mkdtemp(join(tmpdir(), 'neg-b-'))];
const filled = performance.now();
const relayA = await relayOver(dirA, all.slice(0, COUNT));
const relayB = await relayOver(dirB, all.slice(DIFF));
console.log(
  `filled two stores of ${COUNT} events (${DIFF} differ each way) in ${Math.round(performance.now() - filled)} ms`,
);

// The client's side: relay A's (created_at, id) pairs, read as the relay reads them.
const built = performance.now();
const storage = new nip77.NegentropyStorageVector();
const pairs = relayA.store.idsMatching({}, COUNT * 2);
for (let page = pairs.next(10_000); page.length > 0; page = pairs.next(10_000))
  for (const [at, id] of page) storage.insert(at, id);
storage.seal();
const buildMs = performance.now() - built;

const proxy = await countingProxy(relayB.port);
const url = `ws://127.0.0.1:${proxy.port}`;
const sync = await reconcile(url, storage);
const syncBytes = proxy.bytes();
const full = await fullTransfer(url);
const fullBytes = proxy.bytes() - syncBytes;

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
console.log(`client storage of relay A's ${storage.size()} ids: ${Math.round(buildMs)} ms`);
console.log(
  `NIP-77 sync against relay B: ${Math.round(sync.ms)} ms, ${mib(syncBytes)} MiB on the wire, ` +
    `have ${sync.have}, need ${sync.need}`,
);
console.log(`full REQ of relay B: ${Math.round(full.ms)} ms, ${mib(fullBytes)} MiB, ${full.events} events`);
console.log(`sync bytes / full bytes: ${((100 * syncBytes) / fullBytes).toFixed(2)} %`);
if (sync.have !== DIFF || sync.need !== DIFF) throw new Error(`expected ${DIFF} have and ${DIFF} need`);

proxy.server.close();
await relayA.close();
await relayB.close();
await rm(dirA, { recursive: true, force: true });
await rm(dirB, { recursive: true, force: true });
