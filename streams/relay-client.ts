import { LRUCache } from 'lru-cache';
import type { EventTemplate, Filter, NostrEvent, VerifiedEvent } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import { filter, firstValueFrom, merge, Subject, timeout, type Observable, type Subscription } from 'rxjs';
import { signEvent } from '../src/nostr/sign.js';
import type { RelayLinkHealth } from '../src/relay/link.js';
import { connectionSettings, type RelayClientOptions } from './relay-options.js';
import { RelayConnection, type RelayStatus } from './relay-connection.js';
import type { RelayStats, Signer } from './relay-session.js';

export type { RelayStatus } from './relay-connection.js';
export type { RelayStats, Signer } from './relay-session.js';
export type { RelayClientOptions } from './relay-options.js';

/** Signs NIP-42 AUTH events with the station's secret key. */
export function signerFromSecretKey(secretKey: Uint8Array): Signer {
  return async (template: EventTemplate): Promise<VerifiedEvent> => signEvent(template, secretKey);
}

/**
 * The station's relay connections (nostr-tools relays, reconnected by us with RxJS), turned into one stream
 * of verified, de-duplicated events. The first URL is the station relay: `connected`, `publish` and `query`
 * use it alone (what the station publishes belongs to its own relay); the extra relays only feed `events$`.
 */
export class RelayClient {
  readonly stats: RelayStats = { received: 0, invalid: 0, duplicates: 0, future: 0, reconnects: 0 };
  private readonly relays: RelayConnection[];
  private readonly incoming = new Subject<NostrEvent>();
  private readonly seen: LRUCache<string, true>;
  private running: Subscription | null = null;
  private stopped = false;

  constructor(options: RelayClientOptions) {
    const urls = options.urls ?? (options.url ? [options.url] : []);
    if (urls.length === 0) throw new Error('the relay client needs at least the station relay URL');
    const settings = connectionSettings(options, this.stats);
    this.relays = urls.map((url, i) => new RelayConnection(url, i === 0 ? 'station' : 'extra', settings));
    this.seen = new LRUCache({ max: options.seenCapacity ?? 20_000 });
  }

  /** Verified, de-duplicated events of the subscription from every relay; hot, shared by every stream. */
  get events$(): Observable<NostrEvent> {
    return this.incoming.asObservable();
  }

  /** State of the station relay's connection. */
  get status$(): Observable<RelayStatus> {
    return this.station.status$.asObservable();
  }

  /** The station relay is open (extra relays do not count). */
  get connected(): boolean {
    return this.station.status$.value === 'open';
  }

  /**
   * The station relay is open and has answered the subscription of this connection (EOSE), with no AUTH under
   * way that will replace it: an event published to it now reaches `events$`.
   */
  get ready(): boolean {
    return this.station.ready;
  }

  /** Newest `created_at` received from the station relay, never later than now (a safe resume point). */
  get lastSeen(): number | null {
    return this.station.newestSeen();
  }

  get url(): string {
    return this.station.url;
  }

  health(): RelayLinkHealth[] {
    return this.relays.map((relay) => relay.health());
  }

  start(): void {
    if (this.running || this.stopped) return;
    this.running = merge(...this.relays.map((relay) => relay.events$()))
      .pipe(filter((event) => this.firstSighting(event)))
      .subscribe((event) => this.incoming.next(event));
  }

  /** Closes every connection (waiting for the sockets), clears the timers and completes `events$`. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running?.unsubscribe();
    this.running = null;
    await Promise.all(this.relays.map((relay) => relay.closed()));
    this.incoming.complete();
  }

  /** Publishes an event to the station relay; resolves with its OK answer. */
  async publish(event: NostrEvent, timeoutMs = 5_000): Promise<{ accepted: boolean; message: string }> {
    const relay = await this.openStation(timeoutMs);
    const usual = relay.publishTimeout;
    // nostr-tools arms the answer's timer synchronously, with the limit read from this field.
    relay.publishTimeout = timeoutMs;
    const answer = relay.publish(event);
    relay.publishTimeout = usual;
    try {
      return { accepted: true, message: (await answer) ?? '' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message === 'publish timed out') throw new Error('relay did not answer in time', { cause: error });
      if (!relay.connected) throw new Error('relay connection closed', { cause: error });
      return { accepted: false, message };
    }
  }

  /** A REQ to the station relay that resolves with the stored events at EOSE, or what came before the timeout. */
  async query(filters: Filter[], options: { timeoutMs?: number } = {}): Promise<NostrEvent[]> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const relay = await this.openStation(timeoutMs);
    return new Promise<NostrEvent[]>((resolve, reject) => {
      const events: NostrEvent[] = [];
      let settled = false;
      const sub = relay.subscribe(filters, {
        eoseTimeout: timeoutMs,
        onevent: (event) => {
          if (!this.station.isFuture(event)) events.push(event);
        },
        oninvalidevent: () => this.stats.invalid++,
        oneose: () => {
          settled = true;
          resolve(events);
          sub.close();
        },
        onclose: () => {
          if (settled) return;
          settled = true;
          // Refused by the relay (CLOSED): what came so far; the connection dropped: an error.
          if (relay.connected) resolve(events);
          else reject(new Error('relay connection closed'));
        },
      });
    });
  }

  private get station(): RelayConnection {
    return this.relays[0]!;
  }

  private firstSighting(event: NostrEvent): boolean {
    if (this.seen.has(event.id)) {
      this.stats.duplicates++;
      return false;
    }
    this.seen.set(event.id, true);
    return true;
  }

  private async openStation(timeoutMs: number): Promise<AbstractRelay> {
    if (!this.running) throw new Error('relay client is not running');
    try {
      await firstValueFrom(
        this.station.status$.pipe(
          filter((status) => status === 'open'),
          timeout(timeoutMs),
        ),
      );
    } catch (error) {
      throw new Error('relay is not connected', { cause: error });
    }
    const relay = this.station.relay;
    if (!relay) throw new Error('relay is not connected');
    return relay;
  }
}
