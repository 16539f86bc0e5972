import type { FastifyRequest } from 'fastify';
import { unixSeconds, type Clock } from '../../clock.js';
import { parseNostrAuthorization } from '../../nostr/authorization.js';
import type { ReplayRecords } from '../../auth/replay.js';
import { Unauthenticated } from '../../errors.js';
import { coversBlob, verifyBlossomAuthOffThread, type BlossomVerb } from '../../nostr/blossom-auth.js';
import type { OwnServers } from './own-servers.js';

/** A token that passed every check but the blob (known once the body is read) and replay. */
export interface BlossomGrant {
  pubkey: string;
  eventId: string;
  expiration: number;
  blobs: string[];
  verb: BlossomVerb;
}

/** Replay records are kept until the token expires, but not longer than this: junk expirations are cheap. */
const MAX_REMEMBER_SECONDS = 366 * 86_400;

const SHA256 = /^[0-9a-f]{64}$/;

export function isSha256(value: unknown): value is string {
  return typeof value === 'string' && SHA256.test(value);
}

/**
 * The HTTP side of Blossom authorization (the checks themselves are src/nostr/blossom-auth.ts): reads the
 * header, judges the token at the request's arrival, and spends it once per blob (a token naming several
 * blobs uploads each of them once). Preflights check without spending.
 */
export class BlossomGate {
  constructor(
    private readonly deps: {
      replay: Pick<ReplayRecords, 'claim' | 'seen' | 'release'>;
      /** The station's own names: a token's `server` tags must name one (never the request's Host). */
      servers: Pick<OwnServers, 'names' | 'describe'>;
      clock: Clock;
    },
  ) {}

  /** Verifies the request's token for `verb` (and `sha256` when already known); throws 401 otherwise. */
  async check(request: FastifyRequest, verb: BlossomVerb, sha256?: string): Promise<BlossomGrant> {
    const header = parseNostrAuthorization(request.headers.authorization);
    if (!header)
      throw new Unauthenticated(
        'BLOSSOM_AUTH_REQUIRED',
        `This needs an Authorization: Nostr header holding a kind-24242 token with t=${verb}.`,
      );
    if (!header.ok)
      throw new Unauthenticated('BLOSSOM_AUTH_MALFORMED', `Authorization header: ${header.reason}.`);
    const now = Math.floor(request.receivedAt / 1000);
    const isOwnServer = (tag: string) => this.deps.servers.names(tag);
    const verdict = await verifyBlossomAuthOffThread(header.event, { verb, now, isOwnServer, sha256 });
    if (!verdict.ok) {
      const names =
        verdict.code === 'BLOSSOM_AUTH_WRONG_SERVER' ? ` (this one is ${this.deps.servers.describe()})` : '';
      throw new Unauthenticated(verdict.code, `Blossom authorization: ${verdict.reason}${names}.`);
    }
    return {
      pubkey: verdict.pubkey,
      eventId: verdict.eventId,
      expiration: verdict.expiration,
      blobs: verdict.blobs,
      verb,
    };
  }

  /** The blob check left for after the body: an upload of other bytes than the token names is refused. */
  requireBlob(grant: BlossomGrant, sha256: string): void {
    if (!coversBlob(grant.blobs, grant.verb, sha256))
      throw new Unauthenticated(
        'BLOSSOM_AUTH_WRONG_BLOB',
        'Blossom authorization: the token has no x tag for these bytes.',
      );
  }

  /** Whether this token was already spent on this blob (for preflights, which spend nothing). */
  spent(grant: BlossomGrant, sha256: string): boolean {
    return this.deps.replay.seen(replayKey(grant, sha256));
  }

  refund(grant: BlossomGrant, sha256: string): Promise<void> {
    return this.deps.replay.release(replayKey(grant, sha256));
  }

  /** Spends the token on `sha256`; throws 401 when it was spent before. */
  async spend(grant: BlossomGrant, sha256: string): Promise<void> {
    const until = Math.min(grant.expiration, unixSeconds(this.deps.clock) + MAX_REMEMBER_SECONDS);
    if (!(await this.deps.replay.claim(replayKey(grant, sha256), until)))
      throw new Unauthenticated(
        'AUTH_REPLAYED',
        'Blossom authorization: this token was already used for this blob.',
      );
  }
}

/** The token spent on a request that then failed on the station's side may be used again (a retry). */
export async function refundOnFailure<T>(
  gate: BlossomGate,
  grant: BlossomGrant,
  sha256: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await gate.refund(grant, sha256);
    throw error;
  }
}

function replayKey(grant: BlossomGrant, sha256: string): string {
  return `blossom:${grant.verb}:${grant.eventId}:${sha256}`;
}
