import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type WebSocket from 'ws';
import { addressKey } from './address-key.js';
import type { RelayLimits } from './limits.js';
import { closeSubscription, type RelayConnection } from './live-subscriptions.js';
import { Outbox, SendQueues } from './outbox.js';

/** A stranger's queue past its fair share is dropped first once all queues together pass their bound. */
const FAIR_SHARE_BYTES = 256 * 1024;
const WATCH_EVERY_MS = 1_000;

/**
 * The relay's connections: how many each address (an IPv6 /64) holds, and what they have queued for sending.
 * Exempt addresses (the station's tools on loopback, TRUSTED_IPS) are not counted against an address.
 */
export class Connections {
  private readonly perAddress = new Map<string, number>();
  private readonly queues: SendQueues;
  private nextId = 1;
  private total = 0;
  private readonly outboxes = new Map<RelayConnection, Outbox>();
  private readonly watch: NodeJS.Timeout;

  constructor(
    private readonly limits: RelayLimits,
    private readonly exempt: (address: string) => boolean,
    private readonly logger?: Logger,
  ) {
    this.queues = new SendQueues(limits.maxQueuedBytes, FAIR_SHARE_BYTES);
    this.watch = setInterval(() => this.dropStalled(Date.now()), WATCH_EVERY_MS);
    this.watch.unref();
  }

  /**
   * Strangers that stopped reading: an answer waiting for them holds its queue (req-handler.ts), which only
   * time, or all queues together passing their bound, gives back.
   */
  private dropStalled(now: number): void {
    const crowded = this.queues.queued > this.limits.maxQueuedBytes;
    for (const [connection, outbox] of this.outboxes) {
      if (connection.privileged) continue;
      const stalled = outbox.stalledFor(now);
      const hoarding = crowded && outbox.bytes > FAIR_SHARE_BYTES && stalled >= WATCH_EVERY_MS;
      if (stalled >= this.limits.stalledSendMs || hoarding) outbox.drop();
    }
  }

  close(): void {
    clearInterval(this.watch);
  }

  /** Bytes queued for sending over all connections. */
  get queuedBytes(): number {
    return this.queues.queued;
  }

  /** A connection for `socket`, or the reason it is refused (too many from its address, or in all). */
  open(socket: WebSocket, address: string): RelayConnection | string {
    const key = addressKey(address);
    const exempt = this.exempt(address);
    const held = this.perAddress.get(key) ?? 0;
    if (!exempt && this.total >= this.limits.maxConnections) return 'the relay has too many connections';
    if (!exempt && held >= this.limits.maxConnectionsPerAddress)
      return `at most ${this.limits.maxConnectionsPerAddress} connections from one address`;
    this.total++;
    if (!exempt) this.perAddress.set(key, held + 1);
    socket.once('close', () => {
      // Its queued bytes leave the global count, and answers waiting on its queue are released (they stop).
      outbox.close();
      this.total--;
      this.outboxes.delete(connection);
      if (exempt) return;
      const left = (this.perAddress.get(key) ?? 1) - 1;
      if (left > 0) this.perAddress.set(key, left);
      else this.perAddress.delete(key);
    });
    const connection: RelayConnection = {
      id: this.nextId++,
      address,
      addressKey: key,
      challenge: randomBytes(16).toString('hex'),
      pubkey: null,
      privileged: false,
      subscriptions: new Map(),
      subscriptionValues: new Map(),
      filterValues: 0,
      send: (frame) => void outbox.send(frame),
      drained: (bytes) => outbox.drained(bytes),
      get open() {
        return outbox.open;
      },
      get queuedBytes() {
        return outbox.bytes;
      },
      closeSubscription: (id) => closeSubscription(connection, id),
      rateRefusals: { minute: 0, count: 0 },
      close: (reason) => socket.close(1008, reason),
    };
    const outbox = new Outbox(
      socket,
      this.queues,
      () => (connection.privileged ? null : this.limits.slowConsumerBytes),
      (queued) => this.logger?.warn({ address, queued }, 'relay client too slow: connection dropped'),
    );
    this.outboxes.set(connection, outbox);
    return connection;
  }
}
