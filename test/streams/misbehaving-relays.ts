import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { verifyEvent, type Filter, type NostrEvent } from 'nostr-tools';
import { pino, type Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { RelayClient, type RelayClientOptions } from '../../streams/relay-client.js';

/** One client connection of a scripted relay; `state` is the script's own per-connection memory. */
export interface ScriptedConnection {
  socket: WebSocket;
  send(...frame: unknown[]): void;
  state: Record<string, unknown>;
}

export interface Script {
  onConnect?(connection: ScriptedConnection): void;
  onReq?(connection: ScriptedConnection, subscription: string, filters: Filter[]): void;
  onMessage?(connection: ScriptedConnection, frame: unknown[]): void;
}

export interface ScriptedRelay {
  url: string;
  /** Every REQ received, in order, over all connections. */
  reqs: { subscription: string; filters: Filter[] }[];
  connections: ScriptedConnection[];
  /** Cuts every client connection (the client sees the relay go away, the server keeps listening). */
  dropClients(): void;
  close(): Promise<void>;
}

/**
 * A relay that speaks the wire protocol but answers whatever the test scripts: no storage, no checks.
 * `autoPong: false` makes it a relay that never answers pings.
 */
export async function scriptedRelay(
  script: Script,
  options: { autoPong?: boolean } = {},
): Promise<ScriptedRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: options.autoPong ?? true });
  await new Promise((resolve) => server.once('listening', resolve));
  const relay: ScriptedRelay = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reqs: [],
    connections: [],
    dropClients: () => server.clients.forEach((client) => client.terminate()),
    close: () =>
      new Promise<void>((resolve) => {
        relay.dropClients();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    const connection: ScriptedConnection = {
      socket,
      send: (...frame) => socket.send(JSON.stringify(frame)),
      state: {},
    };
    relay.connections.push(connection);
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as unknown[];
      script.onMessage?.(connection, frame);
      if (frame[0] === 'REQ') {
        const [, subscription, ...filters] = frame as [string, string, ...Filter[]];
        relay.reqs.push({ subscription, filters });
        script.onReq?.(connection, subscription, filters);
      }
    });
    script.onConnect?.(connection);
  });
  return relay;
}

/**
 * A relay that requires NIP-42: AUTH challenge at connect, every REQ CLOSED "auth-required:" until the
 * connection answered that challenge with a valid kind-22242 event; then it serves `events`.
 */
export async function authRequiringRelay(events: NostrEvent[]) {
  const auths: NostrEvent[] = [];
  const relay = await scriptedRelay({
    onConnect: (c) => {
      c.state.challenge = randomBytes(16).toString('hex');
      c.send('AUTH', c.state.challenge);
    },
    onMessage: (c, [type, event]) => {
      if (type !== 'AUTH') return;
      const auth = event as NostrEvent;
      auths.push(auth);
      const tag = (name: string) => auth.tags.find((t) => t[0] === name)?.[1];
      const ok =
        verifyEvent(auth) &&
        auth.kind === 22242 &&
        tag('challenge') === c.state.challenge &&
        new URL(tag('relay') ?? 'ws://nowhere').host === new URL(relay.url).host;
      c.state.authenticated = ok;
      c.send('OK', auth.id, ok, ok ? '' : 'invalid: bad AUTH event');
    },
    onReq: (c, subscription) => {
      if (!c.state.authenticated) {
        c.send('CLOSED', subscription, 'auth-required: this relay serves authenticated clients only');
        return;
      }
      for (const event of events) c.send('EVENT', subscription, event);
      c.send('EOSE', subscription);
    },
  });
  return { ...relay, auths };
}

/**
 * A relay that completes the WebSocket handshake (by hand, on a raw TCP server) and then goes silent: it
 * reads and ignores everything, REQ, pings and close frames included, while the TCP connection stays up.
 */
export async function silentRelay() {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.on('data', () => undefined);
      const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      connections++;
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Handshakes completed so far. */
    connections: () => connections,
    /** Sockets still open on the server side. */
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A pino logger whose lines are kept, parsed, for assertions. */
export function captureLogger(): { logger: Logger; logs: Record<string, unknown>[] } {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), logs };
}

/** Starts a client with short test intervals, collects what it emits, and registers its stop. */
export function startClient(
  cleanups: (() => Promise<void>)[],
  options: Partial<RelayClientOptions> & Pick<RelayClientOptions, 'filters'>,
) {
  const client = new RelayClient({ backoff: { initialMs: 20, maxMs: 100 }, ...options });
  const received: NostrEvent[] = [];
  client.events$.subscribe((event) => received.push(event));
  client.start();
  cleanups.push(() => client.stop());
  return { client, received };
}
