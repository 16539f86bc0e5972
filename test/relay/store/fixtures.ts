import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { NostrEvent } from 'nostr-tools';
import type { EventStore } from '../../../src/relay/store/event-store.js';
import { openLmdbEventStore, type LmdbEventStoreOptions } from '../../../src/relay/store/lmdb-event-store.js';
import { ManualClock } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';

export interface StoreFixture {
  store: EventStore;
  path: string;
  clock: ManualClock;
  reopen(options?: Partial<LmdbEventStoreOptions>): Promise<EventStore>;
  cleanup(): Promise<void>;
}

/** A store in a fresh temp directory, on a clock the test moves. */
export async function storeFixture(options: Partial<LmdbEventStoreOptions> = {}): Promise<StoreFixture> {
  const dir = await tempDir('lmdb-store-');
  const clock = new ManualClock();
  const path = join(dir.path, 'relay.lmdb');
  const fixture: StoreFixture = {
    store: await openLmdbEventStore({ path, clock, ...options }),
    path,
    clock,
    async reopen(more = {}) {
      await fixture.store.close();
      fixture.store = await openLmdbEventStore({ path, clock, ...options, ...more });
      return fixture.store;
    },
    async cleanup() {
      await fixture.store.close();
      await dir.cleanup();
    },
  };
  return fixture;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * An event of the right shape whose id and signature are random: the store never verifies, so bulk tests use
 * these instead of spending milliseconds signing each one.
 */
export function unsignedEvent(
  fields: Partial<NostrEvent> & { kind: number; created_at: number },
): NostrEvent {
  return { id: hex(32), pubkey: hex(32), sig: hex(64), tags: [], content: '', ...fields };
}

/** Stores many events, a window at a time (each window shares one commit). */
export async function putAll(store: EventStore, events: NostrEvent[], window = 1_000): Promise<void> {
  for (let i = 0; i < events.length; i += window) {
    const results = await Promise.all(events.slice(i, i + window).map((event) => store.put(event)));
    const refused = results.find((result) => !result.stored);
    if (refused) throw new Error(`put refused: ${JSON.stringify(refused)}`);
  }
}

export const ids = (events: NostrEvent[]) => events.map((event) => event.id);
