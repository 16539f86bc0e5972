import type { NostrEvent } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import {
  BehaviorSubject,
  catchError,
  defer,
  from,
  Observable,
  retry,
  Subscription,
  switchMap,
  timer,
} from 'rxjs';
import type WebSocket from 'ws';
import { unixSeconds } from '../src/clock.js';
import { OutageLog } from '../src/outage-log.js';
import type { RelayLinkHealth } from '../src/relay/link.js';
import { Backoff } from './relay-backoff.js';
import { RelaySession, type RelaySettings } from './relay-session.js';

export type RelayStatus = RelayLinkHealth['status'];

class ClosedByRelay extends Error {
  constructor(readonly reason: string) {
    super(`relay closed the subscription: ${reason}`);
  }
}

/**
 * One relay of the client: a connection renewed with back-off for as long as `events$()` is subscribed, and on
 * it the long-lived subscription, renewed when the relay CLOSEs it. nostr-tools' own reconnection stays off:
 * it resumes from the newest `created_at` emitted, so a single event dated in the future deafens it.
 */
export class RelayConnection {
  readonly status$ = new BehaviorSubject<RelayStatus>('closed');
  /** The nostr-tools relay, while the connection is open. */
  relay: AbstractRelay | null = null;
  private subscription: RelayLinkHealth['subscription'] = 'none';
  private newest: number | null = null;
  private lastEventAt: number | null = null;
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
  }

  health(): RelayLinkHealth {
    const { url, role, lastEventAt, subscription, reconnects } = this;
    return { url, role, status: this.status$.value, lastEventAt, subscription, reconnects };
  }

  /** Newest `created_at` received from this relay, never later than now. */
  newestSeen(): number | null {
    return this.newest === null ? null : Math.min(this.newest, unixSeconds(this.settings.clock));
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

  /** Whether an event is dated too far ahead to count at all; counted in `stats.future` if so. */
  isFuture(event: NostrEvent): boolean {
    const future = event.created_at > unixSeconds(this.settings.clock) + this.settings.maxFutureSeconds;
    if (future) this.settings.stats.future++;
    return future;
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
          open.add(timer(settings.healthyAfterMs).subscribe(() => backoff.reset()));
          open.add(
            from(session.authenticated(settings.authWaitMs))
              .pipe(switchMap(() => this.live(session)))
              .subscribe(subscriber),
          );
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        open.unsubscribe();
        relay.onclose = null;
        relay.close();
        if (this.relay === relay) this.relay = null;
        this.subscription = 'none';
        this.status$.next('closed');
      };
    });
  }

  /** The long-lived subscription on an open connection, renewed when the relay CLOSEs it. */
  private live(session: RelaySession): Observable<NostrEvent> {
    const backoff = new Backoff(this.settings.backoff);
    return defer(() => this.subscribeOnce(session.relay, backoff)).pipe(
      retry({
        delay: (error: unknown) => {
          if (!(error instanceof ClosedByRelay)) throw error;
          const authRequired = error.reason.startsWith('auth-required:');
          this.subscription = authRequired ? 'auth-required' : 'closed';
          const auth = authRequired && !session.resubscribedAfterAuth ? session.authenticate() : null;
          if (auth) {
            // Once per connection: a relay that still refuses after AUTH gets the back-off like any other.
            session.resubscribedAfterAuth = true;
            return from(auth).pipe(catchError(() => timer(backoff.next())));
          }
          const delayMs = Math.round(backoff.next());
          this.settings.logger?.warn(
            { relay: this.url, reason: error.reason, delayMs },
            'relay closed the subscription',
          );
          return timer(delayMs);
        },
      }),
    );
  }

  private subscribeOnce(relay: AbstractRelay, backoff: Backoff): Observable<NostrEvent> {
    return new Observable<NostrEvent>((subscriber) => {
      const filters = this.settings.filters(this.since());
      if (filters.length === 0) return;
      let ended = false;
      const sub = relay.subscribe(filters, {
        onevent: (event) => {
          if (this.isFuture(event)) return;
          this.settings.stats.received++;
          if (this.newest === null || event.created_at > this.newest) this.newest = event.created_at;
          this.lastEventAt = unixSeconds(this.settings.clock);
          subscriber.next(event);
        },
        // Bad signatures, and events the relay sent although they do not match the filters.
        oninvalidevent: () => this.settings.stats.invalid++,
        onclose: (reason) => {
          if (!ended) subscriber.error(new ClosedByRelay(String(reason ?? '')));
        },
      });
      this.subscription = 'live';
      const healthy = setTimeout(() => backoff.reset(), this.settings.healthyAfterMs);
      return () => {
        ended = true;
        clearTimeout(healthy);
        if (!sub.closed) sub.close();
      };
    });
  }

  /** `since` of a resubscription: never after now, so one event dated in the future cannot deafen us. */
  private since(): number | null {
    const newest = this.newestSeen();
    return newest === null ? null : newest - this.settings.overlapSeconds;
  }
}
