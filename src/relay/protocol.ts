import type { NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { isEventShaped, kindClass } from '../nostr/event.js';
import { getEventHash } from 'nostr-tools/pure';
import { checkRelayAuth } from '../nostr/nip42.js';
import { expirationOf } from '../nostr/nip40.js';
import { verifySignatureOffThread } from '../nostr/verify.js';
import type { EventRate } from './event-rate.js';
import type { RelayLimits } from './limits.js';
import { closeSubscription, LiveSubscriptions, type RelayConnection } from './live-subscriptions.js';
import { NegentropySessions } from './negentropy.js';
import type { RateBuckets } from './rate-buckets.js';
import { answerReq } from './req-handler.js';
import { StoreWriteError, type EventStore, type PutResult } from './store/event-store.js';

export interface RelayProtocolDeps {
  store: EventStore;
  limits: RelayLimits;
  /** URLs a client's NIP-42 `relay` tag may name. */
  relayUrls: readonly string[];
  /** Keys whose authenticated connections are the station's own (kind 22242, larger back-fill). */
  privilegedPubkeys: ReadonlySet<string>;
  rate: EventRate;
  reqRate: RateBuckets;
  /** Addresses exempt from the event and REQ rates (the station's own tools on loopback, by default). */
  rateExempt: (address: string) => boolean;
  /** Milliseconds since the epoch. */
  now: () => number;
  logger?: Logger;
}

const frame = (...parts: unknown[]) => JSON.stringify(parts);
const MAX_KIND = 65_535;
/**
 * A connection that goes on sending after this many of its events were refused in one minute as over its
 * address's allowance is closed: each one is still read and parsed, which is the work the allowance spares.
 */
const RATE_REFUSALS_BEFORE_CLOSE = 100;

/**
 * NIP-01 / NIP-42 message handling of the embedded relay, independent of the WebSocket server: one instance
 * for all connections. Every event is verified once here, when it is written; the store never verifies.
 */
export class RelayProtocol {
  readonly live = new LiveSubscriptions();
  /** What /health reports of the answers given. */
  readonly counts = { answerEventsRead: 0 };
  private readonly negentropy: NegentropySessions;

  constructor(private readonly deps: RelayProtocolDeps) {
    this.negentropy = new NegentropySessions({ ...deps, exempt: this.exempt });
  }

  open(connection: RelayConnection): void {
    this.live.add(connection);
    connection.send(frame('AUTH', connection.challenge));
  }

  close(connection: RelayConnection): void {
    this.live.remove(connection);
    this.negentropy.closeAll(connection);
  }

  /** One message of `connection`: its text, and the bytes it came in (what allowances count). */
  async handle(connection: RelayConnection, text: string, bytes = Buffer.byteLength(text)): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return connection.send(frame('NOTICE', 'invalid: the message is not JSON'));
    }
    if (!Array.isArray(message) || typeof message[0] !== 'string')
      return connection.send(frame('NOTICE', 'invalid: a message is an array starting with its type'));
    const [type, first, ...rest] = message as [string, unknown, ...unknown[]];
    if (type === 'EVENT') return this.onEvent(connection, first, bytes);
    if (type === 'REQ') return this.onReq(connection, first, rest);
    if (type === 'CLOSE') {
      if (typeof first === 'string') closeSubscription(connection, first);
      return;
    }
    if (type === 'AUTH') return this.onAuth(connection, first);
    if (type === 'COUNT' && typeof first === 'string')
      return connection.send(frame('CLOSED', first, 'unsupported: COUNT (NIP-45) is not implemented'));
    if (type === 'NEG-OPEN' || type === 'NEG-MSG' || type === 'NEG-CLOSE')
      return this.onNeg(connection, type, first, rest);
    connection.send(frame('NOTICE', `invalid: unknown message type ${JSON.stringify(type.slice(0, 16))}`));
  }

  private async onEvent(connection: RelayConnection, candidate: unknown, bytes: number): Promise<void> {
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
    const refusal = await this.refusal(connection, event, bytes);
    if (refusal?.startsWith('rate-limited:') && this.refusedTooOften(connection)) {
      answer(false, refusal);
      return connection.close('rate-limited: events keep coming past the allowance');
    }
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
  private async refusal(
    connection: RelayConnection,
    event: NostrEvent,
    bytes: number,
  ): Promise<string | null> {
    const { limits } = this.deps;
    const now = Math.floor(this.deps.now() / 1000);
    if (event.kind < 0 || event.kind > MAX_KIND) return `invalid: kinds are 0 to ${MAX_KIND}`;
    if (event.tags.length > limits.maxEventTags) return `invalid: more than ${limits.maxEventTags} tags`;
    if (event.content.length > limits.maxContentLength)
      return `invalid: content longer than ${limits.maxContentLength} characters`;
    if (event.created_at > now + limits.maxFutureSeconds)
      return `invalid: created_at is more than ${limits.maxFutureSeconds} seconds in the future`;
    const over = this.exempt(connection) ? null : this.deps.rate.take(connection.addressKey, bytes);
    if (over === 'events') return `rate-limited: at most ${limits.maxEventsPerMinute} events a minute`;
    if (over === 'bytes')
      return `rate-limited: at most ${Math.floor(limits.maxEventBytesPerMinute / 1024)} KiB of events a minute`;
    // The Schnorr check runs on the signature thread (src/nostr/schnorr-thread.ts), checks asked in one turn
    // going as one message: the relay thread parses, stores and fans out meanwhile, on the other core. The id
    // is recomputed only for an event that failed: a valid one pays for one hash, in the check.
    if (!(await verifySignatureOffThread(event)))
      return getEventHash(event) === event.id ? 'invalid: bad signature' : 'invalid: bad event id';
    const expiration = expirationOf(event);
    if (expiration !== null && expiration <= now) return 'invalid: the event has expired';
    return null;
  }

  /** Counts one more refusal of `connection` in the current minute; true once it has had too many. */
  private refusedTooOften(connection: RelayConnection): boolean {
    const minute = Math.floor(this.deps.now() / 60_000);
    if (connection.rateRefusals.minute !== minute) connection.rateRefusals = { minute, count: 0 };
    return ++connection.rateRefusals.count >= RATE_REFUSALS_BEFORE_CLOSE;
  }

  /** The station's own connection and exempt addresses (TRUSTED_IPS) take from no stranger's allowance. */
  readonly exempt = (connection: RelayConnection) =>
    connection.privileged || this.deps.rateExempt(connection.address);

  private async onReq(connection: RelayConnection, id: unknown, candidates: unknown[]): Promise<void> {
    const { limits } = this.deps;
    const reason = `invalid: a subscription id has 1 to ${limits.maxSubidLength} characters`;
    if (typeof id !== 'string') return connection.send(frame('NOTICE', reason));
    if (id.length === 0 || id.length > limits.maxSubidLength)
      return connection.send(frame('CLOSED', id, reason));
    await answerReq({ ...this.deps, exempt: this.exempt, counts: this.counts }, connection, id, candidates);
  }

  /** NIP-77: subscription ids of their own namespace, checked as REQ's are. */
  private async onNeg(
    connection: RelayConnection,
    type: 'NEG-OPEN' | 'NEG-MSG' | 'NEG-CLOSE',
    id: unknown,
    rest: unknown[],
  ): Promise<void> {
    const { maxSubidLength } = this.deps.limits;
    const reason = `invalid: a subscription id has 1 to ${maxSubidLength} characters`;
    if (typeof id !== 'string') return connection.send(frame('NOTICE', reason));
    if (id.length === 0 || id.length > maxSubidLength) return connection.send(frame('NEG-ERR', id, reason));
    if (type === 'NEG-CLOSE') return this.negentropy.close(connection, id);
    if (type === 'NEG-MSG') return this.negentropy.message(connection, id, rest[0]);
    await this.negentropy.open(connection, id, rest[0], rest[1]);
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
