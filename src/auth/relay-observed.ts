import { LRUCache } from 'lru-cache';
import type { Filter, NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { unixSeconds, type Clock } from '../clock.js';
import type { AuthCache, ObservedAuth } from './auth-cache.js';
import type { ChallengeStore } from './challenges.js';
import { NIP42_KIND, verifyNip42 } from './nip42.js';

/** The one relay call this module needs: a REQ that ends at EOSE (or at the timeout). */
export interface RelayQuery {
  query(filters: Filter[], options?: { timeoutMs?: number }): Promise<NostrEvent[]>;
}

export type IngestResult = { accepted: true } | { accepted: false; code: string; reason: string };

/** How long a key with no 22242 event on the relay is not asked about again. */
const MISS_MEMORY_MS = 10_000;

/**
 * Relay-observed NIP-42 authentication (CONTRACT §5 c): events seen on the subscription are verified here
 * and recorded in the auth cache; on a cache miss the relay is asked once (REQ) before giving up.
 */
export class RelayObservedAuth {
  private readonly recentMisses = new LRUCache<string, true>({ max: 10_000, ttl: MISS_MEMORY_MS });

  constructor(
    private readonly deps: {
      cache: AuthCache;
      challenges: ChallengeStore;
      clock: Clock;
      maxAgeSeconds: number;
      relay?: RelayQuery;
      logger?: Logger;
    },
  ) {}

  async ingest(event: NostrEvent): Promise<IngestResult> {
    const verdict = verifyNip42(event, unixSeconds(this.deps.clock), this.deps.maxAgeSeconds);
    if (!verdict.ok) return { accepted: false, code: verdict.code, reason: verdict.reason };
    // A challenge tag must be one we issued to this key: otherwise anyone could replay a 22242 event that
    // the key signed for another relay or service.
    if (
      verdict.challenge !== null &&
      !(await this.deps.challenges.issuedTo(verdict.challenge, event.pubkey))
    ) {
      return {
        accepted: false,
        code: 'AUTH_CHALLENGE_INVALID',
        reason: 'the challenge was not issued to this key',
      };
    }
    this.deps.cache.record(event);
    this.recentMisses.delete(event.pubkey);
    return { accepted: true };
  }

  async find(pubkey: string): Promise<ObservedAuth | null> {
    const since = unixSeconds(this.deps.clock) - this.deps.maxAgeSeconds;
    const cached = this.deps.cache.lookup(pubkey, since);
    if (cached || !this.deps.relay || this.recentMisses.has(pubkey)) return cached;
    try {
      const events = await this.deps.relay.query(
        [{ kinds: [NIP42_KIND], authors: [pubkey], since, limit: 5 }],
        {
          timeoutMs: 2_000,
        },
      );
      for (const event of events.sort((a, b) => b.created_at - a.created_at)) {
        if (event.pubkey === pubkey && (await this.ingest(event)).accepted) break;
      }
    } catch (error) {
      this.deps.logger?.warn({ err: error }, 'relay query for kind 22242 failed');
    }
    const found = this.deps.cache.lookup(pubkey, since);
    if (!found) this.recentMisses.set(pubkey, true);
    return found;
  }
}
