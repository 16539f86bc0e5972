import type { EventTemplate, Filter, VerifiedEvent } from 'nostr-tools';
import { AbstractRelay, type AbstractRelayConstructorOptions } from 'nostr-tools/abstract-relay';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import type { Clock } from '../src/clock.js';
import { verifySignature } from '../src/nostr/verify.js';
import type { BackoffSettings } from './relay-backoff.js';
import { guardedWebSocket } from './relay-socket.js';

export type Signer = (template: EventTemplate) => Promise<VerifiedEvent>;

export interface RelayStats {
  received: number;
  invalid: number;
  duplicates: number;
  future: number;
  reconnects: number;
}

/** The client's options once defaults are applied; shared by every relay of the client. */
export interface RelaySettings {
  filters: (since: number | null) => Filter[];
  clock: Clock;
  overlapSeconds: number;
  maxFutureSeconds: number;
  backoff: BackoffSettings;
  pingFrequencyMs: number;
  pingTimeoutMs: number;
  closeTimeoutMs: number;
  connectTimeoutMs: number;
  healthyAfterMs: number;
  signer?: Signer;
  logger?: Logger;
  stats: RelayStats;
}

/**
 * One connection attempt: a nostr-tools relay on our `ws` socket, with pings on and its own reconnection off,
 * and the NIP-42 state of that connection.
 */
export class RelaySession {
  readonly relay: AbstractRelay;
  /** The relay refused a REQ after we authenticated: from then on it gets the back-off like any refusal. */
  resubscribedAfterAuth = false;
  private challenge: string | null = null;
  private auth: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly settings: RelaySettings,
    sockets: Set<WebSocket>,
  ) {
    const websocket = guardedWebSocket({
      closeTimeoutMs: settings.closeTimeoutMs,
      created: (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      },
      invalid: () => settings.stats.invalid++,
      handled: (frame) => {
        if (frame[0] !== 'AUTH' || typeof frame[1] !== 'string') return;
        this.challenge = frame[1];
        this.authenticate();
      },
    });
    this.relay = new AbstractRelay(url, {
      verifyEvent: (event) => verifySignature(event),
      websocketImplementation:
        websocket as unknown as AbstractRelayConstructorOptions['websocketImplementation'],
      enablePing: true,
      enableReconnect: false,
    });
    this.relay.pingFrequency = settings.pingFrequencyMs;
    this.relay.pingTimeout = settings.pingTimeoutMs;
    this.relay.onnotice = (notice) => settings.logger?.info({ relay: url, notice }, 'relay notice');
  }

  /**
   * Answers the relay's AUTH challenge with the station key, once per connection; null without a signer or a
   * challenge. `onauth` stays unset: nostr-tools rethrows a refused AUTH from a promise nobody awaits.
   */
  authenticate(): Promise<void> | null {
    const { signer, logger } = this.settings;
    if (!signer || this.challenge === null) return null;
    if (!this.auth) {
      this.auth = this.relay.auth(signer).then(
        () => logger?.info({ relay: this.url }, 'authenticated to the relay (NIP-42)'),
        (error: unknown) => {
          logger?.warn({ relay: this.url, err: error }, 'relay refused our NIP-42 authentication');
          throw error;
        },
      );
      this.auth.catch(() => undefined);
    }
    return this.auth;
  }
}
