import type { NostrEvent } from 'nostr-tools';
import type { RelayQuery } from '../auth/relay-observed.js';

/** What the HTTP surface needs of the relay client (streams/relay-client.ts). */
export interface RelayLink extends RelayQuery {
  readonly connected: boolean;
  readonly url: string;
  publish(event: NostrEvent, timeoutMs?: number): Promise<{ accepted: boolean; message: string }>;
}
