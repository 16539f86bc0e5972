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
  /** How long a fresh connection waits for the relay's AUTH challenge before subscribing (with a signer). */
  authWaitMs: number;
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
  private challenged: () => void = () => undefined;
  private readonly challengeSeen = new Promise<void>((resolve) => (this.challenged = resolve));

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
        this.challenged();
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
   * With a station key: waits (at most `waitMs`) for the challenge a NIP-42 relay sends on connect and for our
   * answer, so the subscription that follows is the station's (on the embedded relay: its back-fill is not
   * cut at the public limit, and it carries kind 22242). A relay that sends no challenge costs the wait once.
   */
  async authenticated(waitMs: number): Promise<void> {
    if (!this.settings.signer) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    const answered = this.challengeSeen.then(() => this.authenticate()?.catch(() => undefined));
    // A slow signer or a silent relay only delays the subscription; CLOSED "auth-required:" covers the rest.
    await Promise.race([answered, waited]);
    clearTimeout(timer);
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
