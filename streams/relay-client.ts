import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Filter, NostrEvent } from 'nostr-tools';
import { verifySignature } from '../src/auth/verify.js';
import type { Logger } from 'pino';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import WebSocket from 'ws';
import { isEventShaped } from '../src/auth/event-shape.js';
import { PendingRequests } from './pending-requests.js';

export type RelayStatus = 'connecting' | 'open' | 'closed';

export interface RelayClientOptions {
  url: string;
  /** Filters of the long-lived subscription, recomputed at every (re)subscription (e.g. `since`). */
  filters: (lastSeen: number | null) => Filter[];
  logger?: Logger;
  backoff?: { initialMs: number; maxMs: number };
}

export interface RelayStats {
  received: number;
  invalid: number;
  duplicates: number;
  reconnects: number;
}

/**
 * One WebSocket to the station's relay, with one long-lived subscription turned into an RxJS stream of
 * verified, de-duplicated events. Reconnects with exponential back-off and resubscribes from the newest
 * `created_at` it has seen, so events published while it was away are fetched again.
 */
export class RelayClient {
  readonly status$ = new BehaviorSubject<RelayStatus>('closed');
  readonly stats: RelayStats = { received: 0, invalid: 0, duplicates: 0, reconnects: 0 };
  private readonly incoming = new Subject<NostrEvent>();
  private readonly seen = new LRUCache<string, true>({ max: 20_000 });
  private readonly pending = new PendingRequests();
  private readonly subscriptionId = `station-${randomBytes(4).toString('hex')}`;
  private socket: WebSocket | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private stopped = true;
  private newest: number | null = null;

  constructor(private readonly options: RelayClientOptions) {}

  /** Verified events of the subscription; hot, shared by every stream. */
  get events$(): Observable<NostrEvent> {
    return this.incoming.asObservable();
  }

  get connected(): boolean {
    return this.status$.value === 'open';
  }

  get lastSeen(): number | null {
    return this.newest;
  }

  get url(): string {
    return this.options.url;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pending.rejectAll(new Error('relay client stopped'));
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    }
    this.status$.next('closed');
    this.incoming.complete();
  }

  /** Publishes an event; resolves with the relay's OK answer. */
  async publish(event: NostrEvent, timeoutMs = 5_000): Promise<{ accepted: boolean; message: string }> {
    await this.waitOpen(timeoutMs);
    const answer = this.pending.open<{ accepted: boolean; message: string }>(`ok:${event.id}`, timeoutMs);
    this.send(['EVENT', event]);
    return answer;
  }

  /** A REQ that resolves with the stored events at EOSE, or what arrived before the timeout. */
  async query(filters: Filter[], options: { timeoutMs?: number } = {}): Promise<NostrEvent[]> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    await this.waitOpen(timeoutMs);
    const id = `q-${randomBytes(6).toString('hex')}`;
    const result = this.pending.collect(`req:${id}`, timeoutMs);
    this.send(['REQ', id, ...filters]);
    try {
      return await result;
    } finally {
      if (this.connected) this.send(['CLOSE', id]);
    }
  }

  private connect(): void {
    this.status$.next('connecting');
    const socket = new WebSocket(this.options.url, { handshakeTimeout: 5_000 });
    this.socket = socket;
    socket.on('open', () => {
      this.attempt = 0;
      this.status$.next('open');
      this.send(['REQ', this.subscriptionId, ...this.options.filters(this.newest)]);
      this.options.logger?.info({ relay: this.options.url }, 'relay connected');
    });
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('error', (error) => this.options.logger?.debug({ err: error }, 'relay socket error'));
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.status$.next('closed');
      this.pending.rejectAll(new Error('relay connection closed'));
      if (!this.stopped) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 500, maxMs: 30_000 };
    const delay = Math.min(maxMs, initialMs * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt++;
    this.stats.reconnects++;
    this.options.logger?.warn({ relay: this.options.url, delayMs: Math.round(delay) }, 'relay disconnected');
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  private async waitOpen(timeoutMs: number): Promise<void> {
    if (this.connected) return;
    if (this.stopped) throw new Error('relay client is not running');
    await this.pending.waitFor(this.status$, 'open', timeoutMs);
  }

  private send(message: unknown[]): void {
    this.socket?.send(JSON.stringify(message));
  }

  private onMessage(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.stats.invalid++;
      return;
    }
    if (!Array.isArray(message)) return;
    const [type, first, second, third] = message as [unknown, unknown, unknown, unknown];
    if (type === 'EVENT' && typeof first === 'string') this.onEvent(first, second);
    else if (type === 'EOSE' && typeof first === 'string') this.pending.finish(`req:${first}`);
    else if (type === 'OK' && typeof first === 'string') {
      this.pending.resolve(`ok:${first}`, { accepted: second === true, message: String(third ?? '') });
    } else if (type === 'CLOSED' && typeof first === 'string') this.pending.finish(`req:${first}`);
    else if (type === 'NOTICE') this.options.logger?.info({ notice: String(first) }, 'relay notice');
  }

  private onEvent(subscription: string, candidate: unknown): void {
    if (!isEventShaped(candidate) || !verifySignature(candidate)) {
      this.stats.invalid++;
      return;
    }
    if (subscription !== this.subscriptionId) {
      this.pending.push(`req:${subscription}`, candidate);
      return;
    }
    this.stats.received++;
    if (this.seen.has(candidate.id)) {
      this.stats.duplicates++;
      return;
    }
    this.seen.set(candidate.id, true);
    if (this.newest === null || candidate.created_at > this.newest) this.newest = candidate.created_at;
    this.incoming.next(candidate);
  }
}
