import type { EventTemplate, Filter, VerifiedEvent } from 'nostr-tools';
import { AbstractRelay, type AbstractRelayConstructorOptions } from 'nostr-tools/abstract-relay';
import type { Logger } from 'pino';
import { ReplaySubject, Subject, type Observable } from 'rxjs';
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
 * One connection attempt: a nostr-tools relay on our `ws` socket, with nostr-tools' own pings and reconnection
 * off (the connection pings: relay-heartbeat.ts), and the NIP-42 state of that connection.
 */
export class RelaySession {
  readonly relay: AbstractRelay;
  /** The `ws` socket, once the relay has created it. */
  socket: WebSocket | null = null;
  /** The relay accepted our AUTH; a subscription sent before may have been served as to anyone. */
  accepted = false;
  /** The relay refused our AUTH (or it could not be signed): this connection stays unauthenticated. */
  refused = false;
  private challenge: string | null = null;
  private auth: Promise<void> | null = null;
  private readonly acceptedSubject = new ReplaySubject<void>(1);
  private readonly eoseSubject = new Subject<string>();

  constructor(
    private readonly url: string,
    private readonly settings: RelaySettings,
    sockets: Set<WebSocket>,
  ) {
    const websocket = guardedWebSocket({
      closeTimeoutMs: settings.closeTimeoutMs,
      created: (socket) => {
        this.socket = socket;
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      },
      invalid: () => settings.stats.invalid++,
      handled: (frame) => {
        if (frame[0] === 'EOSE' && typeof frame[1] === 'string') this.eoseSubject.next(frame[1]);
        if (frame[0] !== 'AUTH' || typeof frame[1] !== 'string') return;
        this.challenge = frame[1];
        this.authenticate();
      },
    });
    this.relay = new AbstractRelay(url, {
      verifyEvent: (event) => verifySignature(event),
      websocketImplementation:
        websocket as unknown as AbstractRelayConstructorOptions['websocketImplementation'],
      enablePing: false,
      enableReconnect: false,
    });
    this.relay.onnotice = (notice) => settings.logger?.info({ relay: url, notice }, 'relay notice');
  }

  /** Emits once, when the relay accepts our AUTH (late subscribers get it too). */
  get accepted$(): Observable<void> {
    return this.acceptedSubject.asObservable();
  }

  /** Ids of the subscriptions the relay sent EOSE for: the EOSE frames themselves, never nostr-tools' timer. */
  get eose$(): Observable<string> {
    return this.eoseSubject.asObservable();
  }

  /** Our AUTH answer is signed or sent and the relay has not said yes or no yet. */
  get authenticating(): boolean {
    return this.auth !== null && !this.accepted && !this.refused;
  }

  /**
   * Answers the relay's AUTH challenge with the station key, once per connection; null without a signer or a
   * challenge. `onauth` stays unset: nostr-tools rethrows a refused AUTH from a promise nobody awaits.
   */
  authenticate(): Promise<void> | null {
    const { signer, logger } = this.settings;
    if (!signer || this.challenge === null) return null;
    if (!this.auth) {
      // nostr-tools swallows a signer's failure and never settles the AUTH: the failure is raced here instead.
      let signingFailed: (error: unknown) => void = () => undefined;
      const failed = new Promise<never>((_, reject) => (signingFailed = reject));
      const sign: Signer = (template) =>
        signer(template).catch((error: unknown) => {
          signingFailed(error);
          return new Promise<never>(() => undefined);
        });
      this.auth = Promise.race([this.relay.auth(sign), failed]).then(
        () => {
          this.accepted = true;
          logger?.info({ relay: this.url }, 'authenticated to the relay (NIP-42)');
          this.acceptedSubject.next();
        },
        (error: unknown) => {
          this.refused = true;
          logger?.warn({ relay: this.url, err: error }, 'relay refused our NIP-42 authentication');
          throw error;
        },
      );
      this.auth.catch(() => undefined);
    }
    return this.auth;
  }
}
