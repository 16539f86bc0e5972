import { LRUCache } from 'lru-cache';
import type { EventTemplate, NostrEvent, VerifiedEvent } from 'nostr-tools';
import type { AbstractRelay } from 'nostr-tools/abstract-relay';
import type { Logger } from 'pino';
import { fetchPaged, fetchStored, openRelay } from './connect.js';
import { isSwarmEvent, SWARM_KINDS } from './kinds.js';
import type { LocalEvents } from './local-store.js';
import { reconcile } from './reconcile.js';

export type SisterStatus = 'connected' | 'syncing' | 'down';

export interface SisterHealth {
  url: string;
  status: SisterStatus;
  /** Unix seconds of the last finished sync. */
  last_sync_at: number | null;
  /** Events received from the sister and new to the station's relay, and sent to it and accepted. */
  events_in: number;
  events_out: number;
  /** EVENT messages received from the sister (duplicates included): what the swarm costs in traffic. */
  received: number;
  method: 'nip77' | 'req' | null;
}

export interface SisterOptions {
  url: string;
  localUrl: string;
  local: LocalEvents;
  intervalMs: number;
  sign: (template: EventTemplate) => Promise<VerifiedEvent>;
  now: () => number;
  logger: Logger;
}

/** Ids per REQ when fetching what the sister has and the station lacks. */
const ID_BATCH = 200;
const MAX_BACKOFF_MS = 60_000;

/**
 * One sister station: reconciled at start and every interval (NIP-77, or a REQ `since` the last sync where the
 * sister has none), then followed live both ways. An event is never sent back to the sister it came from.
 */
export class Sister {
  private readonly state: SisterHealth;
  /** Ids received from this sister: never sent back to it. */
  private readonly fromSister = new LRUCache<string, true>({ max: 50_000 });
  private stopped = false;
  private wake: (() => void) | null = null;
  private links: AbstractRelay[] = [];

  constructor(private readonly options: SisterOptions) {
    this.state = {
      url: options.url,
      status: 'down',
      last_sync_at: null,
      events_in: 0,
      events_out: 0,
      received: 0,
      method: null,
    };
  }

  health(): SisterHealth {
    return { ...this.state };
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    for (const link of this.links) link.close();
  }

  private async run(): Promise<void> {
    let backoff = 1_000;
    while (!this.stopped) {
      const closed = await this.session().catch((error: unknown) => {
        this.options.logger.warn({ sister: this.options.url, err: error }, 'swarm: sister session failed');
        return false;
      });
      for (const link of this.links) link.close();
      this.links = [];
      this.state.status = 'down';
      if (this.stopped) return;
      backoff = closed ? 1_000 : Math.min(backoff * 2, MAX_BACKOFF_MS);
      await this.sleep(backoff);
    }
  }

  /** Connects both sides, follows live, syncs every interval; resolves when a connection drops. */
  private async session(): Promise<boolean> {
    const { url, localUrl, sign } = this.options;
    const sister = await openRelay(url);
    const local = await openRelay(localUrl, sign).catch((error: unknown) => {
      sister.close();
      throw error;
    });
    this.links = [sister, local];
    let dropped = false;
    const down = new Promise<void>((resolve) => {
      sister.onclose = local.onclose = () => {
        dropped = true;
        this.wake?.();
        resolve();
      };
    });
    const since = this.options.now();
    sister.subscribe([{ kinds: [...SWARM_KINDS], since }], {
      onevent: (event) => void this.take(local, event),
    });
    local.subscribe([{ kinds: [...SWARM_KINDS], since }], {
      onevent: (event) => void this.give(sister, event),
    });
    this.state.status = 'connected';
    while (!this.stopped && !dropped) {
      await this.sync(sister, local);
      await Promise.race([this.sleep(this.options.intervalMs), down]);
    }
    return dropped;
  }

  private async sync(sister: AbstractRelay, local: AbstractRelay): Promise<void> {
    const started = this.options.now();
    this.state.status = 'syncing';
    const result = await reconcile(
      sister,
      await this.options.local.storage(started),
      { kinds: [...SWARM_KINDS] },
      30_000,
    );
    if (result === 'unsupported') {
      this.state.method = 'req';
      const since = this.state.last_sync_at ?? 0;
      const filter = { kinds: [...SWARM_KINDS], since };
      await fetchPaged(sister, filter, (page) => Promise.all(page.map((event) => this.take(local, event))));
      await fetchPaged(local, filter, (page) => Promise.all(page.map((event) => this.give(sister, event))));
    } else {
      this.state.method = 'nip77';
      for (let i = 0; i < result.need.length; i += ID_BATCH) {
        const ids = result.need.slice(i, i + ID_BATCH);
        const taken: Promise<void>[] = [];
        await fetchStored(sister, [{ ids }], (event) => taken.push(this.take(local, event)));
        await Promise.all(taken);
      }
      for (let i = 0; i < result.have.length; i += ID_BATCH) {
        const events = result.have.slice(i, i + ID_BATCH).map((id) => this.options.local.event(id));
        await Promise.all(events.map((event) => event && this.give(sister, event)));
      }
    }
    // A connection lost meanwhile: the sync starts over on the next session.
    if (!sister.connected || !local.connected) return;
    this.state.last_sync_at = started;
    if (this.state.status === 'syncing') this.state.status = 'connected';
  }

  /** An event from the sister, published to the station's relay (which verifies and stores it once). */
  private async take(local: AbstractRelay, event: NostrEvent): Promise<void> {
    this.state.received += 1;
    if (!isSwarmEvent(event)) return;
    this.fromSister.set(event.id, true);
    try {
      const answer = await local.publish(event);
      if (!answer.startsWith('duplicate')) this.state.events_in += 1;
    } catch {
      // refused by the station's relay (bad signature, deleted, too far ahead): nothing to do
    }
  }

  /** A public event of the station's relay, sent to the sister unless it came from there. */
  private async give(sister: AbstractRelay, event: NostrEvent): Promise<void> {
    if (!isSwarmEvent(event) || this.fromSister.has(event.id)) return;
    try {
      const answer = await sister.publish(event);
      if (!answer.startsWith('duplicate')) this.state.events_out += 1;
    } catch {
      // refused by the sister: its rules
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
