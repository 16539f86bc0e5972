import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proxyAddr from 'proxy-addr';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { dialableHost, listen } from '../net/listen.js';
import { machineNames } from '../net/machine-names.js';
import {
  NIP11_CORS_HEADERS,
  NIP11_MEDIA_TYPE,
  wantsRelayInformation,
  type RelayInformation,
} from '../nostr/nip11.js';
import { verifySignature } from '../nostr/verify.js';
import { EventRate } from './event-rate.js';
import { advertisedLimitation, DEFAULT_RELAY_LIMITS, type RelayLimits } from './limits.js';
import { Connections } from './connections.js';
import { RelayProtocol } from './protocol.js';
import { RateBuckets } from './rate-buckets.js';
import type { EventStore, StoreHealth } from './store/event-store.js';
import { importJournal } from './store/import-journal.js';
import { openLmdbEventStore } from './store/lmdb-event-store.js';
import { startSweeping } from './sweeper.js';

export interface EmbeddedRelayOptions {
  host: string;
  port: number;
  /** LMDB directory of the stored events; omitted: a temporary one, removed on close (tests). */
  storePath?: string;
  /** An event store opened by the caller (closed with the relay); `storePath` is then unused. */
  store?: EventStore;
  /** A JSON-lines journal of the previous relay, imported once in the background. */
  legacyJournal?: string;
  maxEvents?: number;
  limits?: Partial<RelayLimits>;
  /** Keys of the station itself: their authenticated connections receive kind 22242. */
  privilegedPubkeys?: readonly string[];
  /** Other URLs clients reach this relay by (a reverse proxy's wss://…), for NIP-42 `relay` tags. */
  publicUrls?: readonly string[];
  /** Addresses (IPs or CIDRs) exempt from the per-address event rate. */
  rateExempt?: readonly string[];
  /** Peers allowed to set X-Forwarded-For. */
  trustedProxies?: readonly string[];
  now?: () => number;
  logger?: Logger;
}

export interface EmbeddedRelay {
  url: string;
  port: number;
  store: EventStore;
  health(): { store: StoreHealth; connections: number; queued_bytes: number; answer_events_read: number };
  close(): Promise<void>;
}

function information(limits: RelayLimits, pubkey: string | undefined): RelayInformation {
  return {
    name: 'UPlanet station (embedded relay)',
    description: 'In-process relay of a UPlanet station, started because no relay answered at RELAY_URL.',
    ...(pubkey ? { pubkey } : {}),
    software: 'uplanet-station',
    version: '0.1.0',
    // Only what is implemented and tested (test/relay/): NIP-01, deletions, NIP-11, expiration, AUTH, sync.
    supported_nips: [1, 9, 11, 40, 42, 77],
    limitation: advertisedLimitation(limits),
  };
}

/**
 * The station's own NOSTR relay: a WebSocket server speaking NIP-01 and NIP-42 over an LMDB event store.
 * Opening it costs the same whatever it stores: nothing is read or verified at start.
 */
export async function startEmbeddedRelay(options: EmbeddedRelayOptions): Promise<EmbeddedRelay> {
  const limits = { ...DEFAULT_RELAY_LIMITS, ...options.limits };
  const temporary =
    options.storePath || options.store ? null : await mkdtemp(join(tmpdir(), 'station-relay-'));
  const store =
    options.store ??
    (await openLmdbEventStore({ path: options.storePath ?? temporary!, maxEvents: options.maxEvents }));
  const now = options.now ?? Date.now;
  const exempt = proxyAddr.compile([...(options.rateExempt ?? ['127.0.0.1', '::1'])]);
  const trustProxy = proxyAddr.compile([...(options.trustedProxies ?? [])]);
  const relayUrls: string[] = [...(options.publicUrls ?? [])];
  const protocol = new RelayProtocol({
    store,
    limits,
    relayUrls,
    privilegedPubkeys: new Set(options.privilegedPubkeys ?? []),
    rate: new EventRate(limits.maxEventsPerMinute, limits.maxEventBytesPerMinute, now),
    reqRate: new RateBuckets(limits.reqsPerSecond, limits.reqBurst, now),
    rateExempt: (address) => exempt(address, 0),
    now,
    logger: options.logger,
  });
  const document = JSON.stringify(information(limits, options.privilegedPubkeys?.[0]));

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (wantsRelayInformation(request.headers.accept) || request.method === 'OPTIONS') {
      response.writeHead(200, { 'content-type': NIP11_MEDIA_TYPE, ...NIP11_CORS_HEADERS });
      return response.end(request.method === 'OPTIONS' ? undefined : document);
    }
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('This is a NOSTR relay: connect with a WebSocket client.\n');
  });
  // ws closes a connection whose message passes max_message_length (1009), as NIP-11 advertises. One message
  // per connection per turn of the event loop (the rest waits in its socket, read as the relay takes them):
  // a connection that sends a burst cannot hold the thread while it is all parsed, and a new connection or the
  // station's own messages are served in between (docs/decisions.md, "The relay on a thread of its own").
  const wss = new WebSocketServer({
    server,
    maxPayload: limits.maxMessageLength,
    allowSynchronousEvents: false,
  });
  const connections = new Connections(limits, (address) => exempt(address, 0), options.logger);
  wss.on('connection', (socket, request) => {
    const connection = connections.open(socket, proxyAddr(request, trustProxy));
    // 1008: policy violation; the reason says which allowance (RFC 6455 keeps it under 123 bytes).
    if (typeof connection === 'string') return socket.close(1008, `rate-limited: ${connection}`);
    protocol.open(connection);
    socket.on('message', (data) => {
      // Allowances count the bytes received, not the characters they decode to.
      const bytes = Array.isArray(data) ? data.reduce((n, part) => n + part.length, 0) : data.byteLength;
      protocol.handle(connection, data.toString(), bytes).catch((error: unknown) => {
        options.logger?.error({ err: error }, 'relay message handling failed');
      });
    });
    socket.on('close', () => protocol.close(connection));
    socket.on('error', () => socket.terminate());
  });

  const { port, urlHost } = await listen(server, options.host, options.port);
  // A wildcard host is dialled on loopback: the URL is what the station's own client connects to.
  const url = `ws://${dialableHost(urlHost)}:${port}`;
  relayUrls.push(url, ...loopbackAliases(options.host, port));
  const sweeping = startSweeping(store, now, options.logger);
  if (options.legacyJournal) void importLegacy(options.legacyJournal, store, options.logger);

  return {
    url,
    port,
    store,
    health: () => ({
      store: store.health(),
      connections: protocol.live.size,
      queued_bytes: connections.queuedBytes,
      answer_events_read: protocol.counts.answerEventsRead,
    }),
    close: async () => {
      sweeping.stop();
      connections.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      if (temporary) await rm(temporary, { recursive: true, force: true });
    },
  };
}

/**
 * A client on this machine may name the relay by any loopback spelling; listening on every interface (a
 * station on a LAN), a phone names it by one of the machine's addresses or its mDNS name. These are the
 * relay's own names, never the Host a client connected with, which the client writes.
 */
function loopbackAliases(host: string, port: number): string[] {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (host === '0.0.0.0' || host === '::') names.push(...machineNames());
  return ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(host)
    ? names.map((name) => `ws://${name}:${port}`)
    : [];
}

async function importLegacy(path: string, store: EventStore, logger?: Logger): Promise<void> {
  try {
    await stat(path);
  } catch {
    return;
  }
  try {
    const imported = await importJournal(path, store, verifySignature);
    logger?.info({ imported }, 'embedded relay: previous journal imported');
  } catch (error) {
    logger?.error({ err: error }, 'embedded relay: previous journal import failed');
  }
}
