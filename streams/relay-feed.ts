import type { NostrEvent } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import {
  catchError,
  defer,
  filter,
  from,
  map,
  merge,
  NEVER,
  Observable,
  of,
  retry,
  switchMap,
  take,
  timer,
  type Subscriber,
  type Subscription,
} from 'rxjs';
import { unixSeconds } from '../src/clock.js';
import type { RelayLinkHealth } from '../src/relay/link.js';
import { Backoff } from './relay-backoff.js';
import type { RelaySession, RelaySettings } from './relay-session.js';

class ClosedByRelay extends Error {
  constructor(readonly reason: string) {
    super(`relay closed the subscription: ${reason}`);
  }
}

/** Subscribes to `source` on behalf of `target`, as a subscription of its own that `target` does not end. */
export function forward<T>(source: Observable<T>, target: Subscriber<T>): Subscription {
  return source.subscribe({
    next: (value) => target.next(value),
    error: (error: unknown) => target.error(error),
    complete: () => target.complete(),
  });
}

/** Where the current REQ stands: sent and unanswered, answered (EOSE), or refused. */
type ReqState = 'none' | 'sent' | 'eose' | 'auth-required' | 'closed';

/**
 * The long-lived subscription of one relay, across its connections: its resume point, what /health says of
 * it, and on each connection the REQ sent as soon as the connection opens, sent again once the relay accepts
 * our AUTH (a relay may serve a connection that is not authenticated less: the embedded relay withholds kind
 * 22242 and cuts the back-fill, docs/auth-model.md), and renewed when the relay CLOSEs it.
 */
export class RelayFeed {
  lastEventAt: number | null = null;
  private newest: number | null = null;
  private state: ReqState = 'none';
  private session: RelaySession | null = null;

  constructor(
    private readonly url: string,
    private readonly settings: RelaySettings,
  ) {}

  /**
   * `live` once the relay answered the current REQ with EOSE, and no AUTH is under way that will replace it;
   * `none` while there is no connection or the REQ is unanswered.
   */
  subscription(): RelayLinkHealth['subscription'] {
    if (this.state === 'sent') return 'none';
    if (this.state === 'eose') return this.session?.authenticating ? 'none' : 'live';
    return this.state;
  }

  /** Newest `created_at` received from this relay, never later than now. */
  newestSeen(): number | null {
    return this.newest === null ? null : Math.min(this.newest, unixSeconds(this.settings.clock));
  }

  /** Whether an event is dated too far ahead to count at all; counted in `stats.future` if so. */
  isFuture(event: NostrEvent): boolean {
    const future = event.created_at > unixSeconds(this.settings.clock) + this.settings.maxFutureSeconds;
    if (future) this.settings.stats.future++;
    return future;
  }

  /** The subscription's events on one open connection, until unsubscribed (the connection ends). */
  on(session: RelaySession): Observable<NostrEvent> {
    const renewals = merge(of(false), session.accepted$.pipe(map(() => true)));
    return new Observable<NostrEvent>((subscriber) => {
      // Asked once per connection: the REQ sent again after AUTH reaches back as far as the first one did.
      const since = this.since();
      this.session = session;
      const running = forward(renewals.pipe(switchMap(() => this.renewed(session, since))), subscriber);
      return () => {
        running.unsubscribe();
        this.session = null;
        this.state = 'none';
      };
    });
  }

  /** One REQ from `since`, renewed when the relay CLOSEs it (from the newest event seen by then). */
  private renewed(session: RelaySession, since: number | null): Observable<NostrEvent> {
    const backoff = new Backoff(this.settings.backoff);
    let first = true;
    return defer(() => {
      const start = first ? since : this.since();
      first = false;
      return this.subscribeOnce(session, start, backoff);
    }).pipe(retry({ delay: (error: unknown) => this.afterClosed(error, session, backoff) }));
  }

  private afterClosed(error: unknown, session: RelaySession, backoff: Backoff): Observable<unknown> {
    if (!(error instanceof ClosedByRelay)) throw error;
    const authRequired = error.reason.startsWith('auth-required:');
    this.state = authRequired ? 'auth-required' : 'closed';
    // Our AUTH not answered yet: once the relay accepts it, `on` sends the REQ again; until then, wait. A relay
    // that refused it, or still refuses the REQ after accepting it, gets the back-off like any refusal.
    const auth = authRequired && !session.accepted && !session.refused ? session.authenticate() : null;
    if (auth)
      return from(auth).pipe(
        switchMap(() => NEVER),
        catchError(() => timer(backoff.next())),
      );
    const delayMs = Math.round(backoff.next());
    this.settings.logger?.warn(
      { relay: this.url, reason: error.reason, delayMs },
      'relay closed the subscription',
    );
    return timer(delayMs);
  }

  private subscribeOnce(session: RelaySession, since: number | null, backoff: Backoff) {
    return new Observable<NostrEvent>((subscriber) => {
      const filters = this.settings.filters(since);
      if (filters.length === 0) return;
      const relay: AbstractRelay = session.relay;
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
      this.state = 'sent';
      const answered = session.eose$
        .pipe(
          filter((id) => id === sub.id),
          take(1),
        )
        .subscribe(() => (this.state = 'eose'));
      const healthy = setTimeout(() => backoff.reset(), this.settings.healthyAfterMs);
      return () => {
        ended = true;
        answered.unsubscribe();
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
