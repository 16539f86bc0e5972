import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { NostrRelay } from '@nostr-relay/core';
import { createOutgoingNoticeMessage, LogLevel, type Event } from '@nostr-relay/common';
import { Validator } from '@nostr-relay/validator';
import type { NostrEvent } from 'nostr-tools';
import { verifySignature } from '../auth/verify.js';
import { listen } from '../http/listen.js';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { EventLog } from './event-log.js';
import { MemoryEventRepository } from './memory-repository.js';

export interface EmbeddedRelayOptions {
  host: string;
  port: number;
  /** JSON-lines file that keeps stored events across restarts; omit for a purely in-memory relay. */
  persistPath?: string;
  logger?: Logger;
  maxEvents?: number;
}

export interface EmbeddedRelay {
  url: string;
  port: number;
  repository: MemoryEventRepository;
  close(): Promise<void>;
}

const AUTH_KIND = 22242;
const DELETION_KIND = 5;

function relayInformation(): string {
  return JSON.stringify({
    name: 'UPlanet station (embedded relay)',
    description: 'In-process relay started because no relay answered at RELAY_URL.',
    supported_nips: [1, 2, 9, 11, 12, 16, 20, 33, 40, 42],
    software: '@nostr-relay/core',
    limitation: { max_message_length: 262_144 },
  });
}

function answerHttp(request: IncomingMessage, response: ServerResponse): void {
  if ((request.headers.accept ?? '').includes('application/nostr+json')) {
    response.writeHead(200, { 'content-type': 'application/nostr+json', 'access-control-allow-origin': '*' });
    response.end(relayInformation());
    return;
  }
  response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('This is a NOSTR relay: connect with a WebSocket client.\n');
}

/**
 * A real NOSTR relay (@nostr-relay/core) in this process. Unlike the library as shipped, it passes kind
 * 22242 events to live subscribers (as strfry does), after checking their signature, because the station's
 * authentication flow relies on seeing them.
 */
export async function startEmbeddedRelay(options: EmbeddedRelayOptions): Promise<EmbeddedRelay> {
  const log = options.persistPath ? new EventLog(options.persistPath) : null;
  // Appends start only after the journal was replayed and compacted: an append opened earlier would keep
  // writing to the file the compaction replaced.
  let journaling = false;
  const repository = new MemoryEventRepository(options.maxEvents, (event) => {
    if (journaling) log?.append(event);
  });
  if (log) {
    await log.replay((event) =>
      event.kind === DELETION_KIND
        ? void repository.deleteByDeletionRequest(event)
        : repository.upsert(event),
    );
    await log.compact(repository.events());
    journaling = true;
  }

  const logger = options.logger?.child({ component: 'embedded-relay' });
  const relay = new NostrRelay(repository, {
    logger: {
      setLogLevel: () => undefined,
      debug: (message: string) => logger?.debug(message),
      info: (message: string) => logger?.debug(message),
      warn: (message: string) => logger?.warn(message),
      error: (message: string) => logger?.error(message),
    },
    logLevel: LogLevel.WARN,
    // The library answers identical filters from a one-second cache; a subscriber arriving right after an event
    // was stored could miss it. The in-memory store is fast enough to answer every REQ fresh.
    filterResultCacheTtl: 0,
  });
  relay.register({
    beforeHandleEvent: async (event: Event) => {
      if (event.kind === AUTH_KIND) {
        if (!verifySignature(event as NostrEvent))
          return { canHandle: false, message: 'invalid: bad signature' };
        await relay.broadcast(event);
      } else if (event.kind === DELETION_KIND && verifySignature(event as NostrEvent)) {
        log?.append(event);
      }
      return { canHandle: true };
    },
  });

  const validator = new Validator();
  const server = createServer(answerHttp);
  const wss = new WebSocketServer({ server, maxPayload: 262_144 });
  wss.on('connection', (socket, request) => {
    relay.handleConnection(socket, request.socket.remoteAddress);
    socket.on('message', async (data) => {
      try {
        await relay.handleMessage(socket, await validator.validateIncomingMessage(data));
      } catch (error) {
        socket.send(JSON.stringify(createOutgoingNoticeMessage((error as Error).message)));
      }
    });
    socket.on('close', () => relay.handleDisconnect(socket));
    socket.on('error', () => socket.terminate());
  });

  const { port, urlHost } = await listen(server, options.host, options.port);

  return {
    url: `ws://${urlHost}:${port}`,
    port,
    repository,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await relay.destroy();
      await log?.close();
    },
  };
}
