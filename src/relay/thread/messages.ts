import type { EmbeddedRelayOptions } from '../embedded-relay.js';
import type { StoreHealth } from '../store/event-store.js';

/** What the relay thread is started with: the embedded relay's options that survive a structured clone. */
export type RelayThreadSettings = Omit<EmbeddedRelayOptions, 'store' | 'logger' | 'now'> & {
  /** pino level of the thread's lines, which the station's own logger writes. */
  logLevel: string;
  /** Signature threads the relay thread checks published events with (RELAY_SIGNATURE_THREADS; one without it). */
  signatureThreads?: number;
};

export interface RelayThreadHealth {
  store: StoreHealth;
  connections: number;
  /** Bytes queued for sending over all connections. */
  queued_bytes: number;
  /** Stored events read to answer REQs since the thread started. */
  answer_events_read: number;
}

/** Messages from the relay thread to the station. */
export type FromRelayThread =
  | { type: 'listening'; url: string; port: number }
  | { type: 'failed'; message: string; code: string | undefined }
  | { type: 'health'; health: RelayThreadHealth }
  | { type: 'log'; line: string }
  | { type: 'closed' };

/** Messages from the station to the relay thread. */
export type ToRelayThread = { type: 'close' };
