import { Forbidden, Unauthenticated } from '../errors.js';
import { requireNpub } from '../identity/pubkey.js';
import { tagValue } from '../nostr/event.js';
import { parseNostrAuthorization } from '../nostr/authorization.js';
import { NIP42_KIND, verifyNip42 } from '../nostr/nip42.js';
import { CHALLENGE_TTL_SECONDS } from './challenges.js';
import { NIP98_KIND, NIP98_WINDOW_SECONDS, verifyNip98OffThread } from '../nostr/nip98.js';
import type { AuthContext, AuthenticatorDeps, AuthOptions, AuthRequest } from './types.js';
import {
  AUTH_REQUIRED,
  CHALLENGE_REFUSALS,
  foreignPage,
  malformedHeader,
  NIP98_REPLAYED,
  NO_RELAY_LOGIN,
  NPUB_MISMATCH,
  otherOrigin,
  PAYLOAD_MISMATCH,
  PROOF_REQUIRED,
  protocolReason,
  WRONG_KIND,
} from './refusals.js';

export type { AuthenticatorDeps, AuthRequest } from './types.js';

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
   * upload be refused before it is streamed to disk. Null when neither a header nor an npub names the caller:
   * no key is ever guessed from the address (see `ownerMayFollowFile`).
   */
  async precheck(request: AuthRequest, options: AuthOptions = {}): Promise<string | null> {
    if (!request.authorization && !options.npub && !options.requireProof && !this.deps.requireProof)
      return null;
    return (await this.resolve(request, options, false)).pubkey;
  }

  /**
   * Whether a header-less upload that names no key before its file may be staged, its owner named by the
   * `npub` field after it (UPlanet's cookie, photo and webcam pages put `file` first): only from an address
   * with at least one live relay login, whose keys are the only ones that npub may then name
   * (docs/auth-model.md, "Uploads that send the file first"). A page of another site is refused as a
   * relay-observed login would be.
   */
  ownerMayFollowFile(request: AuthRequest, options: AuthOptions = {}): boolean {
    if (request.authorization || options.npub) return false;
    if (options.requireProof || this.deps.requireProof) return false;
    if (request.origin !== undefined && !this.deps.ownOrigin(request.origin, request.url)) {
      throw new Forbidden('ORIGIN_NOT_ALLOWED', foreignPage(request.origin));
    }
    return this.deps.observed.hasLoginFrom(request.address);
  }

  private async resolve(request: AuthRequest, options: AuthOptions, final: boolean): Promise<AuthContext> {
    const named = this.namedKey(options.npub);
    const header = parseNostrAuthorization(request.authorization);
    let context: AuthContext;
    if (header) {
      if (!header.ok) throw new Unauthenticated('AUTH_MALFORMED', malformedHeader(header.reason));
      const at = Math.floor((request.receivedAt ?? this.deps.clock.now()) / 1000);
      context =
        header.event.kind === NIP42_KIND
          ? await this.viaChallenge(header.event, request.address, at, final)
          : await this.viaNip98(header.event, request, at, final, options.fileDigest);
    } else {
      context = await this.viaRelay(named, request, options.requireProof === true);
    }
    if (named && named !== context.pubkey) {
      throw new Forbidden('NPUB_MISMATCH', NPUB_MISMATCH);
    }
    return context;
  }

  private namedKey(npub: string | null | undefined): string | null {
    if (npub === undefined || npub === null || npub === '') return null;
    return requireNpub(npub).hex;
  }

  private async viaNip98(
    event: Parameters<typeof verifyNip98OffThread>[0],
    request: AuthRequest,
    at: number,
    final: boolean,
    fileDigest?: string,
  ): Promise<AuthContext> {
    if (event.kind !== NIP98_KIND) {
      throw new Unauthenticated('AUTH_WRONG_KIND', WRONG_KIND);
    }
    if (request.url === null) {
      throw new Unauthenticated('AUTH_URL_MISMATCH', otherOrigin(this.deps.origins ?? 'PUBLIC_URL'));
    }
    const verdict = await verifyNip98OffThread(event, { url: request.url, method: request.method, now: at });
    if (!verdict.ok) throw new Unauthenticated(verdict.code, protocolReason('NIP-98', verdict.reason));
    if (!final) return { pubkey: verdict.pubkey, method: 'nip98', proof: true };
    const payload = verdict.payloadHash;
    if (payload !== null && payload !== fileDigest && payload !== (await request.bodyDigest())) {
      throw new Unauthenticated('AUTH_PAYLOAD_MISMATCH', PAYLOAD_MISMATCH);
    }
    const expiresAt = event.created_at + 2 * NIP98_WINDOW_SECONDS;
    if (!(await this.deps.replay.claim(verdict.eventId, expiresAt))) {
      throw new Unauthenticated('AUTH_REPLAYED', NIP98_REPLAYED);
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
    if (!verdict.ok) throw new Unauthenticated(verdict.code, protocolReason('NIP-42', verdict.reason));
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
      throw new Unauthenticated('PROOF_REQUIRED', PROOF_REQUIRED);
    }
    if (!pubkey) {
      throw new Unauthenticated('AUTH_REQUIRED', AUTH_REQUIRED);
    }
    // The login is ambient (nothing in the request proves it): a page of another site, run in the browser of
    // someone logged in from this address, would otherwise act as them. CORS cannot stop a form POST.
    if (request.origin !== undefined && !this.deps.ownOrigin(request.origin, request.url)) {
      throw new Forbidden('ORIGIN_NOT_ALLOWED', foreignPage(request.origin));
    }
    if (!(await this.deps.observed.find(pubkey, request.address))) {
      const refusal = this.deps.observed.lastRefusal(pubkey);
      if (refusal) throw new Unauthenticated(refusal.code, protocolReason('NIP-42', refusal.reason));
      throw new Unauthenticated('AUTH_NOT_FOUND', NO_RELAY_LOGIN);
    }
    return { pubkey, method: 'relay', proof: false };
  }
}
