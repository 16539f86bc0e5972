import type { Filter, NostrEvent } from 'nostr-tools';

/** A REQ that ends at EOSE (or at the timeout). */
export interface RelayQuery {
  query(filters: Filter[], options?: { timeoutMs?: number }): Promise<NostrEvent[]>;
}

/** One relay of the client, as /health reports it. */
export interface RelayLinkHealth {
  url: string;
  role: 'station' | 'extra';
  status: 'connecting' | 'open' | 'closed';
  /** Unix seconds of the newest event received from this relay. */
  lastEventAt: number | null;
  subscription: 'live' | 'auth-required' | 'closed' | 'none';
  reconnects: number;
}

/** What the HTTP surface needs of the relay client (streams/relay-client.ts). */
export interface RelayLink extends RelayQuery {
  /** The station relay is open (optional extra relays do not count). */
  readonly connected: boolean;
  readonly url: string;
  publish(event: NostrEvent, timeoutMs?: number): Promise<{ accepted: boolean; message: string }>;
  health(): RelayLinkHealth[];
}
