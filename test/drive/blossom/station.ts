import { finalizeEvent, type EventTemplate, type NostrEvent } from 'nostr-tools';
import {
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../../helpers/relay-station.js';
import type { TestKey } from '../../helpers/nostr.js';

/** A station listening on loopback (real HTTP for the client libraries), with its relay and bot. */
export interface BlossomStation {
  station: RelayStation;
  /** `http://127.0.0.1:<port>`: the server the client libraries are given. */
  server: string;
  stop(): Promise<void>;
}

export async function startBlossomStation(env: Record<string, string> = {}): Promise<BlossomStation> {
  const station = await startRelayStation(env);
  const server = await station.t.app.listen({ host: '127.0.0.1', port: 0 });
  return { station, server: server.replace('localhost', '127.0.0.1'), stop: () => stopRelayStation(station) };
}

export function signerFor(key: TestKey) {
  return async (draft: EventTemplate): Promise<NostrEvent> => finalizeEvent(draft, key.sk);
}

export async function localUser(s: BlossomStation, email: string): Promise<TestKey> {
  return register(s.station.t, email);
}

/** The user's drive manifest entries, as the station keeps them. */
export async function driveFiles(s: BlossomStation, email: string) {
  const user = await s.station.t.deps.users.findByEmail(email);
  return (await s.station.t.app.drive.list(user!)).files;
}
