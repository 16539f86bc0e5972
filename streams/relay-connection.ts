import type { NostrEvent } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import { BehaviorSubject, defer, Observable, retry, Subscription, timer } from 'rxjs';
import type WebSocket from 'ws';
import { OutageLog } from '../src/outage-log.js';
import type { RelayLinkHealth } from '../src/relay/link.js';
import { Backoff } from './relay-backoff.js';
import { forward, RelayFeed } from './relay-feed.js';
import { startHeartbeat } from './relay-heartbeat.js';
import { RelaySession, type RelaySettings } from './relay-session.js';

export type RelayStatus = RelayLinkHealth['status'];

/**
 * One relay of the client: a connection renewed with back-off for as long as `events$()` is subscribed, pinged
 * while open, and on it the long-lived subscription (relay-feed.ts). nostr-tools' own reconnection stays off:
 * it resumes from the newest `created_at` emitted, so a single event dated in the future deafens it.
 */
export class RelayConnection {
  readonly status$ = new BehaviorSubject<RelayStatus>('closed');
  /** The nostr-tools relay, while the connection is open. */
  relay: AbstractRelay | null = null;
  private readonly feed: RelayFeed;
  private reconnects = 0;
  private wasOpen = false;
  private readonly sockets = new Set<WebSocket>();
  /** Failed connection attempts while the relay stays unreachable: two log lines, not one per attempt. */
  private readonly outage: OutageLog;

  constructor(
    readonly url: string,
    readonly role: RelayLinkHealth['role'],
    private readonly settings: RelaySettings,
  ) {
    this.outage = new OutageLog(`relay ${url}`, settings.logger, settings.clock);
    this.feed = new RelayFeed(url, settings);
  }

  health(): RelayLinkHealth {
    const { url, role, reconnects } = this;
    const { lastEventAt } = this.feed;
    return {
      url,
      role,
      status: this.status$.value,
      lastEventAt,
      subscription: this.feed.subscription(),
      reconnects,
    };
  }

  /** Open, and the subscription answered on this connection: events published now reach the streams. */
  get ready(): boolean {
    return this.status$.value === 'open' && this.feed.subscription() === 'live';
  }

  /** Newest `created_at` received from this relay, never later than now. */
  newestSeen(): number | null {
    return this.feed.newestSeen();
  }

  /** Whether an event is dated too far ahead to count at all; counted in `stats.future` if so. */
  isFuture(event: NostrEvent): boolean {
    return this.feed.isFuture(event);
  }

  /** Events of the long-lived subscription; reconnects until unsubscribed, which closes the connection. */
  events$(): Observable<NostrEvent> {
    const backoff = new Backoff(this.settings.backoff);
    return defer(() => this.session(backoff)).pipe(
      retry({
        delay: (error: unknown) => {
          const delayMs = Math.round(backoff.next());
          this.reconnects++;
          this.settings.stats.reconnects++;
          const reason = error instanceof Error ? error.message : String(error);
          if (this.wasOpen)
            this.settings.logger?.info({ relay: this.url, reason, delayMs }, 'relay connection lost');
          else this.outage.failed(reason, { relay: this.url, delayMs });
          this.wasOpen = false;
          return timer(delayMs);
        },
      }),
    );
  }

  /** Resolves once every socket this relay opened is closed. */
  async closed(): Promise<void> {
    await Promise.all([...this.sockets].map((s) => new Promise((resolve) => s.once('close', resolve))));
  }

  private session(backoff: Backoff): Observable<NostrEvent> {
    return new Observable<NostrEvent>((subscriber) => {
      const { settings } = this;
      this.status$.next('connecting');
      const session = new RelaySession(this.url, settings, this.sockets);
      const relay = session.relay;
      relay.onclose = () => subscriber.error(new Error('connection closed'));
      const open = new Subscription();
      relay.connect({ timeout: settings.connectTimeoutMs }).then(
        () => {
          if (subscriber.closed) return;
          this.relay = relay;
          this.wasOpen = true;
          this.status$.next('open');
          if (this.outage.down) this.outage.succeeded({ relay: this.url });
          else settings.logger?.info({ relay: this.url }, 'relay connected');
          open.add(this.heartbeat(session, backoff, (error) => subscriber.error(error)));
          // At once, not after waiting for an AUTH challenge that may never come: the feed subscribes again
          // once the relay accepts our AUTH. A subscription of its own, so it ends before the relay closes.
          open.add(forward(this.feed.on(session), subscriber));
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        open.unsubscribe();
        relay.onclose = null;
        relay.close();
        if (this.relay === relay) this.relay = null;
        this.status$.next('closed');
      };
    });
  }

  /**
   * Pings the open connection; a missing pong ends it at once (terminated: a dead peer would not finish a
   * close handshake). The back-off starts over only once the connection has lasted `healthyAfterMs` and
   * answered a ping since: a relay that accepts connections and then goes deaf gets a longer wait each time.
   */
  private heartbeat(session: RelaySession, backoff: Backoff, fail: (error: Error) => void): () => void {
    const { socket } = session;
    if (!socket) return () => undefined;
    let lasted = false;
    const healthy = setTimeout(() => (lasted = true), this.settings.healthyAfterMs);
    const { pingFrequencyMs: frequencyMs, pingTimeoutMs: timeoutMs } = this.settings;
    const stop = startHeartbeat(
      socket,
      { frequencyMs, timeoutMs },
      {
        pong: () => {
          if (lasted) backoff.reset();
        },
        dead: () => {
          socket.terminate();
          fail(new Error(`no pong within ${timeoutMs} ms`));
        },
      },
    );
    return () => {
      clearTimeout(healthy);
      stop();
    };
  }
}
