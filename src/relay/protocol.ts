import type { Filter, NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { isEventShaped, kindClass } from '../nostr/event.js';
import { compileFilter, validateFilter } from '../nostr/filters.js';
import { checkRelayAuth, NIP42_KIND } from '../nostr/nip42.js';
import { expirationOf } from '../nostr/nip40.js';
import { verifySignature } from '../nostr/verify.js';
import type { EventRate } from './event-rate.js';
import type { RelayLimits } from './limits.js';
import { LiveSubscriptions, type RelayConnection } from './live-subscriptions.js';
import { StoreWriteError, type EventStore, type PutResult } from './store/event-store.js';

export interface RelayProtocolDeps {
  store: EventStore;
  limits: RelayLimits;
  /** URLs a client's NIP-42 `relay` tag may name. */
  relayUrls: readonly string[];
  /** Keys whose authenticated connections are the station's own (kind 22242, larger back-fill). */
  privilegedPubkeys: ReadonlySet<string>;
  rate: EventRate;
  /** Addresses exempt from the event rate (the station's own tools on loopback, by default). */
  rateExempt: (address: string) => boolean;
  /** Milliseconds since the epoch. */
  now: () => number;
  logger?: Logger;
}

const frame = (...parts: unknown[]) => JSON.stringify(parts);

/**
 * NIP-01 / NIP-42 message handling of the embedded relay, independent of the WebSocket server: one instance
 * for all connections. Every event is verified once here, when it is written; the store never verifies.
 */
export class RelayProtocol {
  readonly live = new LiveSubscriptions();

  constructor(private readonly deps: RelayProtocolDeps) {}

  open(connection: RelayConnection): void {
    this.live.add(connection);
    connection.send(frame('AUTH', connection.challenge));
  }

  close(connection: RelayConnection): void {
    this.live.remove(connection);
  }

  async handle(connection: RelayConnection, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return connection.send(frame('NOTICE', 'invalid: the message is not JSON'));
    }
    if (!Array.isArray(message) || typeof message[0] !== 'string')
      return connection.send(frame('NOTICE', 'invalid: a message is an array starting with its type'));
    const [type, first, ...rest] = message as [string, unknown, ...unknown[]];
    if (type === 'EVENT') return this.onEvent(connection, first);
    if (type === 'REQ') return this.onReq(connection, first, rest);
    if (type === 'CLOSE') {
      if (typeof first === 'string') connection.subscriptions.delete(first);
      return;
    }
    if (type === 'AUTH') return this.onAuth(connection, first);
    if (type === 'COUNT' && typeof first === 'string')
      return connection.send(frame('CLOSED', first, 'unsupported: COUNT (NIP-45) is not implemented'));
    connection.send(frame('NOTICE', `invalid: unknown message type ${JSON.stringify(type.slice(0, 16))}`));
  }

  private async onEvent(connection: RelayConnection, candidate: unknown): Promise<void> {
    if (!isEventShaped(candidate)) {
      const id = (candidate as { id?: unknown } | null)?.id;
      const reason = 'invalid: not a well-formed NOSTR event';
      return connection.send(
        typeof id === 'string' ? frame('OK', id, false, reason) : frame('NOTICE', reason),
      );
    }
    const event = candidate;
    const answer = (accepted: boolean, message: string) =>
      connection.send(frame('OK', event.id, accepted, message));
    const refusal = this.refusal(connection, event);
    if (refusal) return answer(false, refusal);
    if (kindClass(event.kind) === 'ephemeral') {
      this.live.broadcast(event);
      return answer(true, '');
    }
    let result: PutResult;
    try {
      result = await this.deps.store.put(event);
    } catch (error) {
      const full = error instanceof StoreWriteError && error.code === 'STORE_FULL';
      this.deps.logger?.error({ err: error, id: event.id }, 'relay store write failed');
      return answer(
        false,
        full ? 'error: the relay has no disk space left' : 'error: the relay could not store it',
      );
    }
    if (result.stored) {
      answer(true, '');
      this.live.broadcast(event);
    } else if (result.reason === 'duplicate' || result.reason === 'replaced') {
      answer(true, `duplicate: ${result.message}`);
    } else {
      answer(false, `${result.reason === 'deleted' ? 'blocked' : 'invalid'}: ${result.message}`);
    }
  }

  /** Cheap checks before the signature; the reason is the `OK false` message, null when acceptable. */
  private refusal(connection: RelayConnection, event: NostrEvent): string | null {
    const { limits } = this.deps;
    const now = Math.floor(this.deps.now() / 1000);
    if (event.tags.length > limits.maxEventTags) return `invalid: more than ${limits.maxEventTags} tags`;
    if (event.content.length > limits.maxContentLength)
      return `invalid: content longer than ${limits.maxContentLength} characters`;
    if (event.created_at > now + limits.maxFutureSeconds)
      return `invalid: created_at is more than ${limits.maxFutureSeconds} seconds in the future`;
    if (
      !connection.privileged &&
      !this.deps.rateExempt(connection.address) &&
      !this.deps.rate.take(connection.address)
    )
      return `rate-limited: at most ${limits.maxEventsPerMinute} events a minute`;
    if (!verifySignature(event)) return 'invalid: bad signature';
    const expiration = expirationOf(event);
    if (expiration !== null && expiration <= now) return 'invalid: the event has expired';
    return null;
  }

  private onReq(connection: RelayConnection, id: unknown, candidates: unknown[]): void {
    const { limits } = this.deps;
    if (typeof id !== 'string' || id.length === 0 || id.length > limits.maxSubidLength)
      return connection.send(
        frame('NOTICE', `invalid: a subscription id has 1 to ${limits.maxSubidLength} characters`),
      );
    const closed = (reason: string) => connection.send(frame('CLOSED', id, reason));
    connection.subscriptions.delete(id);
    if (connection.subscriptions.size >= limits.maxSubscriptions)
      return closed(`error: at most ${limits.maxSubscriptions} subscriptions per connection`);
    if (candidates.length === 0 || candidates.length > limits.maxFilters)
      return closed(`invalid: a REQ has 1 to ${limits.maxFilters} filters`);
    const filters: Filter[] = [];
    for (const candidate of candidates) {
      const checked = validateFilter(candidate);
      if (typeof checked === 'string') return closed(`invalid: ${checked}`);
      filters.push(checked);
    }
    // A REQ for logins only is refused as NIP-42 says; in a wider REQ they are simply never delivered, so a
    // client that is not (yet) the station still receives everything else.
    if (
      !connection.privileged &&
      filters.every((filter) => filter.kinds?.length && filter.kinds.every((kind) => kind === NIP42_KIND))
    ) {
      return closed(
        connection.pubkey
          ? 'restricted: kind 22242 events are delivered only to the station'
          : 'auth-required: kind 22242 events are delivered only to the station',
      );
    }
    // The station's own back-fill asks for everything since its resume point: no default cut for it.
    const cap = connection.privileged ? limits.privilegedMaxLimit : limits.maxLimit;
    const fallback = connection.privileged ? cap : limits.defaultLimit;
    const bounded = filters.map((filter) => ({ ...filter, limit: Math.min(filter.limit ?? fallback, cap) }));
    const prefix = `["EVENT",${JSON.stringify(id)},`;
    for (const event of this.deps.store.query(bounded, cap))
      connection.send(`${prefix}${JSON.stringify(event)}]`);
    connection.send(frame('EOSE', id));
    const predicates = filters.map(compileFilter);
    connection.subscriptions.set(id, (event) => predicates.some((matches) => matches(event)));
  }

  private onAuth(connection: RelayConnection, candidate: unknown): void {
    if (!isEventShaped(candidate))
      return connection.send(frame('NOTICE', 'invalid: AUTH carries a signed event'));
    const verdict = checkRelayAuth(candidate, {
      challenge: connection.challenge,
      relayUrls: this.deps.relayUrls,
      now: Math.floor(this.deps.now() / 1000),
    });
    if (!verdict.ok) return connection.send(frame('OK', candidate.id, false, verdict.reason));
    connection.pubkey = candidate.pubkey;
    connection.privileged = this.deps.privilegedPubkeys.has(candidate.pubkey);
    connection.send(frame('OK', candidate.id, true, ''));
  }
}
