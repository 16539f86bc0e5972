import type { Clock } from '../clock.js';
import type { ChallengeStore } from './challenges.js';
import type { RelayObservedAuth } from './relay-observed.js';
import type { ReplayRecords } from './replay.js';
import type { UserRecord } from '../identity/user-files.js';

/** How the caller proved who they are (docs/api-contract.md §5). */
export type AuthMethod = 'nip98' | 'challenge' | 'relay';

export interface AuthContext {
  /** Hex public key of the authenticated caller. */
  pubkey: string;
  method: AuthMethod;
  /** True for per-request proof of possession (NIP-98 or a signed challenge), false for relay-observed. */
  proof: boolean;
}

export interface AuthOptions {
  /** The `npub` (or hex) the request names, if any: it must be the authenticated key (else 403). */
  npub?: string | null;
  /** Refuse relay-observed authentication for this operation (e.g. reading back a cookie file). */
  requireProof?: boolean;
  /**
   * NIP-96: a NIP-98 `payload` tag may name the SHA-256 of the uploaded file instead of the whole body's
   * (its clients sign the file's hash).
   */
  fileDigest?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Authenticates the request (docs/api-contract.md §5): header proof first, else relay-observed kind 22242
     * for `npub`. Throws 401/403 AppErrors. Memoised per request. For multipart routes, call it after the
     * body has been consumed: a NIP-98 `payload` tag is checked against the SHA-256 of the raw body.
     */
    authenticate(options?: AuthOptions): Promise<AuthContext>;
    /**
     * The checks that need no body (see `Authenticator.precheck`), plus "is a registered user": call it when a
     * multipart file part starts, with the fields seen so far, to refuse before streaming. Does not consume
     * the credential; `requireOwner` must still follow. Resolves with the caller's key when one is known.
     */
    precheckOwner(options?: AuthOptions): Promise<string | null>;
    /**
     * When `precheckOwner` found no key (no header, no npub before the file): whether the file may be staged
     * all the same, its `npub` field to follow, one of the keys logged in from this address
     * (`Authenticator.ownerMayFollowFile`).
     */
    ownerMayFollowFile(options?: AuthOptions): boolean;
    /** authenticate() and then require a registered user whose HEX is the caller (owner only), else 403. */
    requireOwner(options?: AuthOptions): Promise<{ auth: AuthContext; user: UserRecord }>;
  }
}

export interface AuthRequest {
  authorization: string | undefined;
  /**
   * Absolute URL the client addressed, when its origin is one of the station's (see origins.ts); null for any
   * other host, which no NIP-98 event can match.
   */
  url: string | null;
  /** Client address (through TRUSTED_PROXIES): challenges and relay-observed logins are bound to it. */
  address: string;
  /** The `Origin` header, when the client sent one (browsers do on cross-origin requests and on POSTs). */
  origin?: string;
  method: string;
  /** SHA-256 hex of the raw body; only awaited when a NIP-98 event carries a payload tag. */
  bodyDigest: () => Promise<string>;
  /**
   * When the request arrived (ms). Time windows are judged at arrival, not after the body was read: a large
   * upload that takes minutes to stream was still authorised when it started.
   */
  receivedAt?: number;
}

export interface AuthenticatorDeps {
  clock: Clock;
  requireProof: boolean;
  replay: Pick<ReplayRecords, 'claim'>;
  challenges: Pick<ChallengeStore, 'consume' | 'check'>;
  observed: Pick<RelayObservedAuth, 'find' | 'lastRefusal' | 'hasLoginFrom'>;
  /** Where a NIP-98 `u` tag should point, for the refusal message. */
  origins?: string;
  /** Whether an Origin header is one of the station's own for this request (`StationOrigins.allowsOrigin`). */
  ownOrigin: (origin: string, requestUrl: string | null) => boolean;
}
