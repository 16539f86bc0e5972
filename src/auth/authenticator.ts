import { Forbidden, InvalidInput, Unauthenticated, type UnauthenticatedCode } from '../errors.js';
import { parsePubkey } from '../identity/pubkey.js';
import type { ChallengeVerdict } from './challenges.js';
import { tagValue } from '../nostr/event.js';
import { parseNostrAuthorization } from '../nostr/authorization.js';
import { NIP42_KIND, verifyNip42 } from '../nostr/nip42.js';
import { CHALLENGE_TTL_SECONDS } from './challenges.js';
import { NIP98_KIND, NIP98_WINDOW_SECONDS, verifyNip98OffThread } from '../nostr/nip98.js';
import type { AuthContext, AuthenticatorDeps, AuthOptions, AuthRequest } from './types.js';

export type { AuthenticatorDeps, AuthRequest } from './types.js';

const CHALLENGE_REFUSALS: Record<Exclude<ChallengeVerdict, 'ok'>, [UnauthenticatedCode, string]> = {
  unknown: [
    'AUTH_CHALLENGE_INVALID',
    'NIP-42: the challenge is unknown, expired or already used (a challenge seen on the relay is used up); get a new one from /api/nip42/challenge.',
  ],
  'other-key': ['AUTH_CHALLENGE_OTHER_KEY', 'NIP-42: the challenge was issued to another key.'],
  'other-address': [
    'AUTH_CHALLENGE_OTHER_ADDRESS',
    'NIP-42: the challenge was issued to another client address; ask for one from this address.',
  ],
};

/**
 * docs/api-contract.md §5: NIP-98 (a), a signed 22242 answering an issued challenge (b), or relay-observed
 * 22242 (c).
 */
export class Authenticator {
  constructor(private readonly deps: AuthenticatorDeps) {}

  async authenticate(request: AuthRequest, options: AuthOptions = {}): Promise<AuthContext> {
    return this.resolve(request, options, true);
  }

  /**
   * Everything that can be checked before the body is read: signature, time window, URL and method of a
   * header event, an issued challenge (not consumed), or a relay-observed event for the named key. Lets an
   * upload be refused before it is streamed to disk. With neither a header nor an npub, the one key logged in
   * on the relay from this address stands for the caller (the UPlanet pages send `file` before `npub`); null
   * when there is none, or several.
   */
  async precheck(request: AuthRequest, options: AuthOptions = {}): Promise<string | null> {
    if (!request.authorization && !options.npub && !options.requireProof && !this.deps.requireProof) {
      const sole = this.deps.observed.soleLogin(request.address);
      if (!sole) return null;
      return (await this.resolve(request, { ...options, npub: sole }, false)).pubkey;
    }
    return (await this.resolve(request, options, false)).pubkey;
  }

  private async resolve(request: AuthRequest, options: AuthOptions, final: boolean): Promise<AuthContext> {
    const named = this.namedKey(options.npub);
    const header = parseNostrAuthorization(request.authorization);
    let context: AuthContext;
    if (header) {
      if (!header.ok) throw new Unauthenticated('AUTH_MALFORMED', `Authorization header: ${header.reason}.`);
      const at = Math.floor((request.receivedAt ?? this.deps.clock.now()) / 1000);
      context =
        header.event.kind === NIP42_KIND
          ? await this.viaChallenge(header.event, request.address, at, final)
          : await this.viaNip98(header.event, request, at, final, options.fileDigest);
    } else {
      context = await this.viaRelay(named, request, options.requireProof === true);
    }
    if (named && named !== context.pubkey) {
      throw new Forbidden('NPUB_MISMATCH', 'The npub of the request is not the authenticated key.');
    }
    return context;
  }

  private namedKey(npub: string | null | undefined): string | null {
    if (npub === undefined || npub === null || npub === '') return null;
    const parsed = parsePubkey(npub);
    if (!parsed) throw new InvalidInput('INVALID_NPUB', 'npub must be a bech32 npub or 64 hex characters.');
    return parsed.hex;
  }

  private async viaNip98(
    event: Parameters<typeof verifyNip98OffThread>[0],
    request: AuthRequest,
    at: number,
    final: boolean,
    fileDigest?: string,
  ): Promise<AuthContext> {
    if (event.kind !== NIP98_KIND) {
      throw new Unauthenticated('AUTH_WRONG_KIND', `An Authorization event must be kind 27235 or 22242.`);
    }
    if (request.url === null) {
      throw new Unauthenticated(
        'AUTH_URL_MISMATCH',
        `NIP-98: this request's host is not one of this station's origins (${this.deps.origins ?? 'PUBLIC_URL'}).`,
      );
    }
    const verdict = await verifyNip98OffThread(event, { url: request.url, method: request.method, now: at });
    if (!verdict.ok) throw new Unauthenticated(verdict.code, `NIP-98: ${verdict.reason}.`);
    if (!final) return { pubkey: verdict.pubkey, method: 'nip98', proof: true };
    const payload = verdict.payloadHash;
    if (payload !== null && payload !== fileDigest && payload !== (await request.bodyDigest())) {
      throw new Unauthenticated(
        'AUTH_PAYLOAD_MISMATCH',
        'NIP-98: the payload tag is not the SHA-256 of the body.',
      );
    }
    const expiresAt = event.created_at + 2 * NIP98_WINDOW_SECONDS;
    if (!(await this.deps.replay.claim(verdict.eventId, expiresAt))) {
      throw new Unauthenticated(
        'AUTH_REPLAYED',
        'NIP-98: this authorization event was already used; sign a new one for every request. Two requests ' +
          'to the same URL with the same method in the same second sign the same event (the same id) unless ' +
          'it differs, for instance by a `payload` tag (the SHA-256 of the body) or a random `nonce` tag.',
      );
    }
    return { pubkey: verdict.pubkey, method: 'nip98', proof: true };
  }

  private async viaChallenge(
    event: Parameters<typeof verifyNip42>[0],
    address: string,
    at: number,
    final: boolean,
  ): Promise<AuthContext> {
    const verdict = verifyNip42(event, at, CHALLENGE_TTL_SECONDS);
    if (!verdict.ok) throw new Unauthenticated(verdict.code, `NIP-42: ${verdict.reason}.`);
    const challenge = tagValue(event, 'challenge');
    const expected = { pubkey: event.pubkey, address, at };
    const outcome =
      challenge === undefined
        ? 'unknown'
        : final
          ? (await this.deps.challenges.consume(challenge, expected)).verdict
          : this.deps.challenges.check(challenge, expected);
    if (outcome !== 'ok') throw new Unauthenticated(...CHALLENGE_REFUSALS[outcome]);
    return { pubkey: event.pubkey, method: 'challenge', proof: true };
  }

  private async viaRelay(
    pubkey: string | null,
    request: AuthRequest,
    requireProof: boolean,
  ): Promise<AuthContext> {
    if (requireProof || this.deps.requireProof) {
      throw new Unauthenticated(
        'PROOF_REQUIRED',
        'This operation needs an Authorization header: a NIP-98 event or a signed answer to /api/nip42/challenge.',
      );
    }
    if (!pubkey) {
      throw new Unauthenticated(
        'AUTH_REQUIRED',
        'Send an Authorization: Nostr header, or the npub of a key that answered a /api/nip42/challenge on the relay.',
      );
    }
    // The login is ambient (nothing in the request proves it): a page of another site, run in the browser of
    // someone logged in from this address, would otherwise act as them. CORS cannot stop a form POST.
    if (request.origin !== undefined && !this.deps.ownOrigin(request.origin, request.url)) {
      throw new Forbidden(
        'ORIGIN_NOT_ALLOWED',
        `A relay-observed login is not accepted from a page of ${request.origin}: sign the request (NIP-98), or use the station's own pages.`,
      );
    }
    if (!(await this.deps.observed.find(pubkey, request.address))) {
      const refusal = this.deps.observed.lastRefusal(pubkey);
      if (refusal) throw new Unauthenticated(refusal.code, `NIP-42: ${refusal.reason}.`);
      throw new Unauthenticated(
        'AUTH_NOT_FOUND',
        'No recent kind 22242 answer from this key to a challenge asked from this address was seen on the relay.',
      );
    }
    return { pubkey, method: 'relay', proof: false };
  }
}
