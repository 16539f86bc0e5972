import { LRUCache } from 'lru-cache';
import type { NostrEvent } from 'nostr-tools';
import { unixSeconds, type Clock } from '../clock.js';
import type { Localized, UnauthenticatedCode } from '../errors.js';
import { verifyNip42 } from '../nostr/nip42.js';
import { ANY_ADDRESS, type AuthCache, type ObservedAuth } from './auth-cache.js';
import type { ChallengeStore } from './challenges.js';

interface Refusal {
  code: UnauthenticatedCode;
  reason: Localized;
}

export type IngestResult = { accepted: true } | ({ accepted: false } & Refusal);

/**
 * Relay-observed NIP-42 logins (docs/auth-model.md). A kind-22242 event seen on the subscription counts only
 * when it answers a challenge this station issued to its key: the challenge is consumed on sight (so the
 * answer can never serve again, in a header or elsewhere) and the login is bound to the client address that
 * asked for it. Without a station challenge it counts only with the operator's legacy switch, for any
 * address.
 */
export class RelayObservedAuth {
  /** Why a key's latest 22242 was refused, so a request relying on it gets that reason, not "none seen". */
  private readonly refusals = new LRUCache<string, Refusal>({ max: 10_000 });

  constructor(
    private readonly deps: {
      cache: AuthCache;
      challenges: Pick<ChallengeStore, 'consume'>;
      clock: Clock;
      maxAgeSeconds: number;
      /** AUTH_LEGACY_RELAY_LOGIN: accept a 22242 without a station challenge, from any address. */
      legacy: boolean;
    },
  ) {}

  async ingest(event: NostrEvent): Promise<IngestResult> {
    const verdict = verifyNip42(event, unixSeconds(this.deps.clock), this.deps.maxAgeSeconds);
    if (!verdict.ok) return this.refuse(event.pubkey, verdict.code, verdict.reason);
    const claim = { id: event.id, pubkey: event.pubkey, createdAt: event.created_at };
    if (verdict.challenge !== null) {
      const { verdict: outcome, issued } = await this.deps.challenges.consume(verdict.challenge, {
        pubkey: event.pubkey,
      });
      if (outcome === 'ok' && issued) {
        this.deps.cache.record({ ...claim, address: issued.address });
        this.refusals.delete(event.pubkey);
        return { accepted: true };
      }
      if (outcome === 'other-key')
        return this.refuse(event.pubkey, 'AUTH_CHALLENGE_OTHER_KEY', {
          en: 'the challenge was issued to another key',
          fr: 'le défi a été délivré à une autre clé',
        });
    }
    if (this.deps.legacy) {
      this.deps.cache.record({ ...claim, address: ANY_ADDRESS });
      return { accepted: true };
    }
    return this.refuse(
      event.pubkey,
      'AUTH_CHALLENGE_NOT_ISSUED',
      verdict.challenge === null
        ? {
            en: 'the kind 22242 event carries no challenge from this station: ask GET /api/nip42/challenge first',
            fr: 'l’événement de kind 22242 ne porte aucun défi de cette station : demandez d’abord GET /api/nip42/challenge',
          }
        : {
            en: 'the challenge of the kind 22242 event was not issued by this station (or was already used or expired): ask GET /api/nip42/challenge again',
            fr: 'le défi de l’événement de kind 22242 n’a pas été délivré par cette station (ou a déjà servi, ou a expiré) : redemandez GET /api/nip42/challenge',
          },
    );
  }

  /** The newest login of `pubkey` bound to `address`, within AUTH_MAX_AGE. */
  async find(pubkey: string, address: string): Promise<ObservedAuth | null> {
    return this.deps.cache.lookup(pubkey, address, unixSeconds(this.deps.clock) - this.deps.maxAgeSeconds);
  }

  /**
   * Whether some key logged in from `address` within AUTH_MAX_AGE: UPlanet's pages send the file before the
   * npub, which may then follow (authenticator.ts, `ownerMayFollowFile`); no key is picked for the caller.
   */
  hasLoginFrom(address: string): boolean {
    return this.deps.cache.anyLoginAt(address, unixSeconds(this.deps.clock) - this.deps.maxAgeSeconds);
  }

  /** Why the latest kind-22242 event of `pubkey` did not log it in, if one was refused. */
  lastRefusal(pubkey: string): Refusal | null {
    return this.refusals.get(pubkey) ?? null;
  }

  private refuse(pubkey: string, code: UnauthenticatedCode, reason: Localized): IngestResult {
    this.refusals.set(pubkey, { code, reason });
    return { accepted: false, code, reason };
  }
}
