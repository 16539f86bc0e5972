import { randomBytes } from 'node:crypto';
import { unixSeconds, type Clock } from '../clock.js';
import type { FileClaims } from './claims.js';

export const CHALLENGE_TTL_SECONDS = 120;

/** NIP-42 challenges issued by `GET /api/nip42/challenge`: bound to one key, single-use, 120 s. */
export class ChallengeStore {
  constructor(
    private readonly claims: FileClaims,
    private readonly clock: Clock,
  ) {}

  async issue(pubkey: string): Promise<{ challenge: string; expiresIn: number }> {
    const challenge = randomBytes(32).toString('hex');
    await this.claims.claim(challenge, unixSeconds(this.clock) + CHALLENGE_TTL_SECONDS, pubkey);
    return { challenge, expiresIn: CHALLENGE_TTL_SECONDS };
  }

  /**
   * True once for a challenge issued to `pubkey` and unexpired at `atSeconds` (when the request arrived);
   * the challenge is gone afterwards.
   */
  async consume(challenge: string, pubkey: string, atSeconds?: number): Promise<boolean> {
    return (await this.claims.take(challenge, atSeconds)) === pubkey;
  }

  /** True while an unexpired challenge issued to `pubkey` exists (relay-observed events carrying it). */
  async issuedTo(challenge: string, pubkey: string): Promise<boolean> {
    return (await this.claims.peek(challenge)) === pubkey;
  }
}
