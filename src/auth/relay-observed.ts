import type { NostrEvent } from 'nostr-tools';
import { unixSeconds, type Clock } from '../clock.js';
import type { AuthCache, ObservedAuth } from './auth-cache.js';
import type { ChallengeStore } from './challenges.js';
import { verifyNip42 } from '../nostr/nip42.js';

export type IngestResult = { accepted: true } | { accepted: false; code: string; reason: string };

/**
 * Relay-observed NIP-42 authentication (CONTRACT §5 c): events seen on the subscription are verified here
 * and recorded in the auth cache, which keeps them across restarts.
 */
export class RelayObservedAuth {
  constructor(
    private readonly deps: {
      cache: AuthCache;
      challenges: ChallengeStore;
      clock: Clock;
      maxAgeSeconds: number;
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
    return { accepted: true };
  }

  /**
   * The newest accepted claim of `pubkey` within AUTH_MAX_AGE. Only the cache (and the station database behind
   * it) is asked: kind 22242 is ephemeral, so no relay could hand an older one back.
   */
  async find(pubkey: string): Promise<ObservedAuth | null> {
    return this.deps.cache.lookup(pubkey, unixSeconds(this.deps.clock) - this.deps.maxAgeSeconds);
  }
}
