import { validateFilter } from '../nostr/filters.js';
import { NIP42_KIND } from '../nostr/nip42.js';
import type { RelayLimits } from './limits.js';
import type { RelayConnection } from './live-subscriptions.js';
import { buildStorage, type RecordBudget } from './negentropy-build.js';
import { ResponderNegentropy } from './negentropy-responder.js';
import type { RateBuckets } from './rate-buckets.js';
import type { EventStore } from './store/event-store.js';

export interface NegentropyDeps {
  store: Pick<EventStore, 'idsMatching'>;
  limits: RelayLimits;
  /** The REQ budget: a NEG-OPEN takes from it as a REQ does. */
  reqRate: RateBuckets;
  exempt: (connection: RelayConnection) => boolean;
}

/** NIP-77 protocol version 1; a message of another version is answered with this byte alone. */
const VERSION = 0x61;
/** Bytes of one message the relay sends (hex doubles them): under the default 256 KiB a client accepts. */
const FRAME_BYTES = 60_000;
/** A reconciliation the client leaves this long without a message is closed (NIP-77's "closed"). */
const IDLE_MS = 60_000;
const HEX = /^(?:[0-9a-f]{2})+$/i;

interface Session {
  negentropy: ResponderNegentropy | null;
  records: number;
  idle: NodeJS.Timeout;
}

const frame = (...parts: unknown[]) => JSON.stringify(parts);

/**
 * NIP-77 (negentropy) reconciliations of every connection: NEG-OPEN builds the relay's side from the store's
 * (created_at, id) index entries, a chunk per event-loop turn; NEG-MSG answers with nostr-tools' `Negentropy`;
 * NEG-CLOSE, a NEG-ERR, an idle minute, a NEG-OPEN under the same id or the connection's end free it.
 */
export class NegentropySessions {
  private readonly sessions = new WeakMap<RelayConnection, Map<string, Session>>();
  private readonly budget: RecordBudget;

  constructor(private readonly deps: NegentropyDeps) {
    this.budget = { held: 0, max: deps.limits.maxNegRecordsTotal };
  }

  async open(connection: RelayConnection, id: string, candidate: unknown, message: unknown): Promise<void> {
    this.close(connection, id);
    const { limits } = this.deps;
    const refuse = (reason: string, ...more: unknown[]) =>
      connection.send(frame('NEG-ERR', id, reason, ...more));
    // NIP-77 names one filter; NDK sends it in an array (as strfry accepts): an array of one is taken too.
    const single = Array.isArray(candidate) && candidate.length === 1 ? (candidate[0] as unknown) : candidate;
    const filter = Array.isArray(single) ? 'a NEG-OPEN has one filter' : validateFilter(single);
    if (typeof filter === 'string') return refuse(`invalid: ${filter}`);
    const version = this.version(message);
    if (typeof version === 'string') return refuse(version);
    // NIP-77: a version this relay does not speak is answered with the highest it does, for the client to retry.
    if (version !== VERSION) return connection.send(frame('NEG-MSG', id, VERSION.toString(16)));
    const open = this.of(connection);
    if (open.size >= limits.maxNegOpen)
      return refuse(`blocked: at most ${limits.maxNegOpen} open reconciliations per connection`);
    if (!this.deps.exempt(connection) && !this.deps.reqRate.take(connection.addressKey))
      return refuse(
        `rate-limited: at most ${limits.reqsPerSecond} REQs or NEG-OPENs a second from one address`,
      );
    const hidden = connection.privileged ? [] : [NIP42_KIND];
    if (hidden.length > 0 && filter.kinds?.length && filter.kinds.every((kind) => kind === NIP42_KIND))
      return refuse(
        `${connection.pubkey ? 'restricted' : 'auth-required'}: kind 22242 events are given only to the station`,
      );

    const session: Session = { negentropy: null, records: 0, idle: this.idleTimer(connection, id) };
    open.set(id, session);
    const current = () => connection.open && open.get(id) === session;
    const context = { limits, hidden, budget: this.budget, session, current };
    const built = await buildStorage(this.deps.store, filter, context);
    if (built === null || !current()) return;
    if (typeof built === 'string') {
      this.close(connection, id);
      return built.startsWith('blocked: this query') ? refuse(built, limits.maxNegRecords) : refuse(built);
    }
    session.negentropy = new ResponderNegentropy(built, FRAME_BYTES);
    this.reconcile(connection, id, session, message as string);
  }

  message(connection: RelayConnection, id: string, message: unknown): void {
    const session = this.sessions.get(connection)?.get(id);
    if (!session) return connection.send(frame('NEG-ERR', id, 'closed: no open reconciliation has this id'));
    if (!session.negentropy) {
      this.close(connection, id);
      return connection.send(frame('NEG-ERR', id, 'invalid: NEG-MSG before the answer to NEG-OPEN'));
    }
    const version = this.version(message);
    if (version !== VERSION) {
      this.close(connection, id);
      const reason =
        typeof version === 'string' ? version : 'invalid: the version changed mid-reconciliation';
      return connection.send(frame('NEG-ERR', id, reason));
    }
    session.idle.refresh();
    this.reconcile(connection, id, session, message as string);
  }

  /** Frees reconciliation `id` of `connection` (NEG-CLOSE, a replacement, an error); nothing is sent. */
  close(connection: RelayConnection, id: string): void {
    const open = this.sessions.get(connection);
    const session = open?.get(id);
    if (!open || !session) return;
    clearTimeout(session.idle);
    this.budget.held -= session.records;
    session.records = 0;
    open.delete(id);
  }

  /** Frees every reconciliation of a connection that ended. */
  closeAll(connection: RelayConnection): void {
    for (const id of [...(this.sessions.get(connection)?.keys() ?? [])]) this.close(connection, id);
    this.sessions.delete(connection);
  }

  private reconcile(connection: RelayConnection, id: string, session: Session, message: string): void {
    let answer: string;
    try {
      answer = session.negentropy!.reconcile(message);
    } catch (error) {
      this.close(connection, id);
      const reason = error instanceof Error ? error.message : String(error);
      return connection.send(frame('NEG-ERR', id, `invalid: ${reason}`));
    }
    connection.send(frame('NEG-MSG', id, answer));
  }

  /** A message's protocol version byte, or why it is not a negentropy message. */
  private version(message: unknown): number | string {
    if (typeof message !== 'string' || !HEX.test(message))
      return 'invalid: a negentropy message is a non-empty even-length hex string';
    const version = parseInt(message.slice(0, 2), 16);
    if (version < 0x60 || version > 0x6f) return 'invalid: not a negentropy message (bad version byte)';
    return version;
  }

  private of(connection: RelayConnection): Map<string, Session> {
    let open = this.sessions.get(connection);
    if (!open) this.sessions.set(connection, (open = new Map()));
    return open;
  }

  private idleTimer(connection: RelayConnection, id: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.close(connection, id);
      if (connection.open) connection.send(frame('NEG-ERR', id, 'closed: no message for a minute'));
    }, IDLE_MS);
    timer.unref();
    return timer;
  }
}
