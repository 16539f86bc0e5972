import { randomBytes } from 'node:crypto';
import { unixSeconds, type Clock } from '../clock.js';
import type { IssuedChallenge, StationDb } from '../state/station-db.js';

export const CHALLENGE_TTL_SECONDS = 120;
/** Challenges one client address may hold at once; asking for more drops its oldest. */
export const CHALLENGES_PER_ADDRESS = 8;

/** Why a challenge was not accepted: only `ok` consumes it. */
export type ChallengeVerdict = 'ok' | 'unknown' | 'other-key' | 'other-address';

/**
 * NIP-42 challenges issued by `GET /api/nip42/challenge` (docs/auth-model.md): bound to one key and to the
 * client address that asked, single-use, 120 s. Kept in the station database, so any worker of a cluster can
 * consume a challenge another issued, exactly once; the number pending per address is bounded.
 */
export class ChallengeStore {
  constructor(
    private readonly db: Pick<StationDb, 'challenges' | 'challengesByAddress'>,
    private readonly clock: Clock,
  ) {}

  async issue(pubkey: string, address: string): Promise<{ challenge: string; expiresIn: number }> {
    const challenge = randomBytes(32).toString('hex');
    const issuedAt = unixSeconds(this.clock);
    const record: IssuedChallenge = {
      pubkey,
      address,
      issuedAt,
      expiresAt: issuedAt + CHALLENGE_TTL_SECONDS,
    };
    // Inside a transaction each write is done at once and returns a settled promise; a failed commit rejects
    // the transaction itself, with ENOSPC or EIO (src/state/station-db.ts): the route answers 507 or 503.
    await this.db.challenges.transaction(() => {
      const pending = [
        ...this.db.challengesByAddress.getRange({
          start: [address],
          end: [address, Number.MAX_SAFE_INTEGER],
        }),
      ];
      for (const { key } of pending.slice(0, Math.max(0, pending.length - CHALLENGES_PER_ADDRESS + 1))) {
        void this.db.challenges.remove(key[2]);
        void this.db.challengesByAddress.remove(key);
      }
      void this.db.challenges.put(challenge, record);
      void this.db.challengesByAddress.put([address, issuedAt, challenge], true);
    });
    return { challenge, expiresIn: CHALLENGE_TTL_SECONDS };
  }

  /**
   * Consumes `challenge` when it was issued to `pubkey` (and to `address`, when given) and had not expired at
   * `at`; exactly one caller in any process gets `ok`. An answer from another key or address consumes nothing,
   * so it cannot burn a challenge that belongs to someone else.
   */
  async consume(
    challenge: string,
    expected: { pubkey: string; address?: string; at?: number },
  ): Promise<{
    verdict: ChallengeVerdict;
    issued: IssuedChallenge | null;
  }> {
    const at = expected.at ?? unixSeconds(this.clock);
    return this.db.challenges.transaction(() => {
      const issued = this.db.challenges.get(challenge) ?? null;
      const verdict = judge(issued, expected.pubkey, expected.address, at);
      if (verdict === 'ok' && issued) this.drop(challenge, issued);
      return { verdict, issued: verdict === 'ok' ? issued : null };
    });
  }

  /** The same judgement without consuming (checks before an upload is streamed). */
  check(challenge: string, expected: { pubkey: string; address?: string; at?: number }): ChallengeVerdict {
    return judge(
      this.db.challenges.get(challenge) ?? null,
      expected.pubkey,
      expected.address,
      expected.at ?? unixSeconds(this.clock),
    );
  }

  /** Removes expired challenges; run now and then. */
  async sweep(): Promise<number> {
    const now = unixSeconds(this.clock);
    const expired = [...this.db.challenges.getRange({})].filter(({ value }) => value.expiresAt < now);
    if (expired.length === 0) return 0;
    await this.db.challenges.transaction(() => {
      for (const { key, value } of expired) this.drop(key, value);
    });
    return expired.length;
  }

  private drop(challenge: string, issued: IssuedChallenge): void {
    void this.db.challenges.remove(challenge);
    void this.db.challengesByAddress.remove([issued.address, issued.issuedAt, challenge]);
  }
}

function judge(
  issued: IssuedChallenge | null,
  pubkey: string,
  address: string | undefined,
  at: number,
): ChallengeVerdict {
  if (!issued || issued.expiresAt < at) return 'unknown';
  if (issued.pubkey !== pubkey) return 'other-key';
  if (address !== undefined && issued.address !== address) return 'other-address';
  return 'ok';
}
