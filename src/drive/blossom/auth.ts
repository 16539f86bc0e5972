import type { FastifyRequest } from 'fastify';
import { unixSeconds, type Clock } from '../../clock.js';
import { parseNostrAuthorization } from '../../nostr/authorization.js';
import type { ReplayRecords } from '../../auth/replay.js';
import { Unauthenticated, type Localized } from '../../errors.js';
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

/** A token presented again for the same blob (upload preflight, upload, delete). */
export const TOKEN_SPENT: Localized = {
  en: 'Blossom authorization: this token was already used for this blob.',
  fr: 'Autorisation Blossom : ce jeton a déjà servi pour ce blob.',
};

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
      throw new Unauthenticated('BLOSSOM_AUTH_REQUIRED', {
        en: `This needs an Authorization: Nostr header holding a kind-24242 token with t=${verb}.`,
        fr: `Il faut un en-tête Authorization: Nostr portant un jeton de kind 24242 avec t=${verb}.`,
      });
    if (!header.ok)
      throw new Unauthenticated('BLOSSOM_AUTH_MALFORMED', {
        en: `Authorization header: ${header.reason.en}.`,
        fr: `En-tête Authorization : ${header.reason.fr}.`,
      });
    const now = Math.floor(request.receivedAt / 1000);
    const isOwnServer = (tag: string) => this.deps.servers.names(tag);
    const verdict = await verifyBlossomAuthOffThread(header.event, { verb, now, isOwnServer, sha256 });
    if (!verdict.ok) {
      const wrongServer = verdict.code === 'BLOSSOM_AUTH_WRONG_SERVER';
      const servers = wrongServer ? this.deps.servers.describe() : '';
      throw new Unauthenticated(verdict.code, {
        en: `Blossom authorization: ${verdict.reason.en}${wrongServer ? ` (this one is ${servers})` : ''}.`,
        fr: `Autorisation Blossom : ${verdict.reason.fr}${wrongServer ? ` (celui-ci est ${servers})` : ''}.`,
      });
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
      throw new Unauthenticated('BLOSSOM_AUTH_WRONG_BLOB', {
        en: 'Blossom authorization: the token has no x tag for these bytes.',
        fr: 'Autorisation Blossom : le jeton n’a pas de tag x pour ces octets.',
      });
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
      throw new Unauthenticated('AUTH_REPLAYED', TOKEN_SPENT);
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
