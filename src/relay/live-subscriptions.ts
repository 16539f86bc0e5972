import type { NostrEvent } from 'nostr-tools';
import { NIP42_KIND } from '../nostr/nip42.js';

/** One client connection as the relay protocol sees it (the WebSocket stays in the server). */
export interface RelayConnection {
  readonly id: number;
  /** Client address, through the trusted proxies. */
  readonly address: string;
  /** What the address's allowances are counted by: the address, or its IPv6 /64 (address-key.ts). */
  readonly addressKey: string;
  /** The NIP-42 challenge sent to this connection. */
  readonly challenge: string;
  /** Key authenticated by NIP-42 AUTH, if any. */
  pubkey: string | null;
  /** Authenticated as the station itself: receives kind 22242, never dropped, larger back-fill. */
  privileged: boolean;
  /** Live subscriptions by id: their filters, compiled once into one predicate. */
  readonly subscriptions: Map<string, (event: NostrEvent) => boolean>;
  /** Filter values of each open subscription, and their sum (RelayLimits.maxFilterValues). */
  readonly subscriptionValues: Map<string, number>;
  filterValues: number;
  /** Sends one frame; drops the connection instead when the client does not keep up. */
  send(frame: string): void;
  /** Bytes queued for this client, not yet written to its socket. */
  readonly queuedBytes: number;
  /** Resolves once at most `bytes` are queued for this client, or it is gone. */
  drained(bytes: number): Promise<void>;
  readonly open: boolean;
  /** Ends a subscription (CLOSE, or a REQ reusing its id), giving back its filter values. */
  closeSubscription(id: string): void;
  /** Events of this connection refused as over its address's allowance, in the minute they are counted for. */
  rateRefusals: { minute: number; count: number };
  /** Closes the connection (1008, policy violation) with `reason`. */
  close(reason: string): void;
}

/** Ends subscription `id` of `connection`, giving back its filter values. */
export function closeSubscription(connection: RelayConnection, id: string): void {
  connection.subscriptions.delete(id);
  connection.filterValues -= connection.subscriptionValues.get(id) ?? 0;
  connection.subscriptionValues.delete(id);
}

/**
 * Live subscriptions of every connection. Kind-22242 events (the station's login answers) reach only
 * connections authenticated as the station: signed auth answers must not be public (docs/auth-model.md).
 */
export class LiveSubscriptions {
  private readonly connections = new Set<RelayConnection>();

  add(connection: RelayConnection): void {
    this.connections.add(connection);
  }

  remove(connection: RelayConnection): void {
    this.connections.delete(connection);
  }

  get size(): number {
    return this.connections.size;
  }

  broadcast(event: NostrEvent): number {
    const eventJson = JSON.stringify(event);
    let delivered = 0;
    for (const connection of this.connections) {
      if (event.kind === NIP42_KIND && !connection.privileged) continue;
      for (const [id, matches] of connection.subscriptions) {
        if (!matches(event)) continue;
        connection.send(`["EVENT",${JSON.stringify(id)},${eventJson}]`);
        delivered++;
      }
    }
    return delivered;
  }
}
