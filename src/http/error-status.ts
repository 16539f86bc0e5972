import { StationError, type ErrorCode } from '../errors.js';

/**
 * The HTTP status of every code the station answers with, in one place: a new code does not type-check
 * until it has one here. Fastify's and Node's own refusals (src/http/error-handler.ts, client-errors.ts)
 * use the same codes with these statuses.
 */
const STATUS: Record<ErrorCode, number> = {
  // 400: the caller sent something unusable.
  BAD_CONTENT_LENGTH: 400,
  BAD_COORDINATES: 400,
  BAD_DEG: 400,
  BAD_PUBKEY: 400,
  BAD_REQUEST: 400,
  BAD_URL: 400,
  COOKIE_FILE: 400,
  COOKIE_LINE_TOO_LONG: 400,
  EMPTY_BODY: 400,
  INVALID_COOKIE_DOMAIN: 400,
  INVALID_COORDINATES: 400,
  INVALID_CREDENTIAL: 400,
  INVALID_CURSOR: 400,
  INVALID_DOMAIN: 400,
  INVALID_EMAIL: 400,
  INVALID_FILE_PATH: 400,
  INVALID_G1PUB: 400,
  INVALID_IPFS_PATH: 400,
  INVALID_LENGTH: 400,
  INVALID_LIMIT: 400,
  INVALID_NPUB: 400,
  INVALID_PUBKEY: 400,
  INVALID_SHA256: 400,
  INVALID_YEAR: 400,
  MALFORMED_COOKIE_LINE: 400,
  MALFORMED_JSON: 400,
  MALFORMED_MULTIPART: 400,
  MALFORMED_REQUEST: 400,
  MIRROR_URL_REFUSED: 400,
  MISSING_FILE: 400,
  MISSING_G1PUB: 400,
  MISSING_G1PUBS: 400,
  MULTI_DOMAIN_COOKIES: 400,
  NOT_A_COOKIE_FILE: 400,
  NOT_A_DIRECTORY: 400,
  NOT_A_FILE: 400,
  NOT_MULTIPART: 400,
  PRE_STRETCH_UNSUPPORTED: 400,
  PUBLIC_SUFFIX_COOKIE: 400,
  TOO_MANY_KEYS: 400,
  UNEXPECTED_FILE: 400,
  UNSUPPORTED_FORMAT: 400,
  VALIDATION_FAILED: 400,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  REQUEST_TIMEOUT: 408,
  LENGTH_REQUIRED: 411,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,

  // 401: no proof of a key, or one that does not hold.
  AUTH_BAD_SIGNATURE: 401,
  AUTH_CHALLENGE_INVALID: 401,
  AUTH_CHALLENGE_NOT_ISSUED: 401,
  AUTH_CHALLENGE_OTHER_ADDRESS: 401,
  AUTH_CHALLENGE_OTHER_KEY: 401,
  AUTH_EXPIRED: 401,
  AUTH_MALFORMED: 401,
  AUTH_METHOD_MISMATCH: 401,
  AUTH_NOT_FOUND: 401,
  AUTH_PAYLOAD_MISMATCH: 401,
  AUTH_REPLAYED: 401,
  AUTH_REQUIRED: 401,
  AUTH_URL_MISMATCH: 401,
  AUTH_WRONG_KIND: 401,
  BLOSSOM_AUTH_BAD_SIGNATURE: 401,
  BLOSSOM_AUTH_EXPIRED: 401,
  BLOSSOM_AUTH_FUTURE: 401,
  BLOSSOM_AUTH_MALFORMED: 401,
  BLOSSOM_AUTH_NO_EXPIRATION: 401,
  BLOSSOM_AUTH_REQUIRED: 401,
  BLOSSOM_AUTH_WRONG_BLOB: 401,
  BLOSSOM_AUTH_WRONG_KIND: 401,
  BLOSSOM_AUTH_WRONG_SERVER: 401,
  BLOSSOM_AUTH_WRONG_VERB: 401,
  PROOF_REQUIRED: 401,

  NOT_LOCAL_USER: 403,
  NOT_REGISTERED: 403,
  NOT_YOUR_LIST: 403,
  NPUB_MISMATCH: 403,
  ORIGIN_NOT_ALLOWED: 403,

  BLOB_NOT_FOUND: 404,
  CONTENT_NOT_FOUND: 404,
  COOKIE_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  FOLLOWS_NOT_FOUND: 404,
  GPS_NOT_SET: 404,
  NOT_FOUND: 404,
  NO_WALLET: 404,
  PLAYLIST_NOT_FOUND: 404,
  PROFILE_NOT_FOUND: 404,
  UNKNOWN_USER: 404,

  BLOB_HASH_MISMATCH: 409,
  KEY_EXISTS: 409,
  NAME_TAKEN: 409,
  USER_EXISTS: 409,

  BODY_TOO_LARGE: 413,
  CHUNK_EXTENSIONS_TOO_LARGE: 413,
  COOKIE_FILE_TOO_LARGE: 413,
  DAG_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  MIRROR_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  TOO_MANY_FIELDS: 413,
  TOO_MANY_FILES: 413,
  TOO_MANY_PARTS: 413,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,

  RATE_LIMITED: 429,
  UPLOAD_CONCURRENCY_LIMITED: 429,
  UPLOAD_RATE_LIMITED: 429,
  DRIVE_BUSY: 503,
  OVERLOADED: 503,
  STATION_BUSY: 503,

  CID_MISMATCH: 500,
  INTERNAL: 500,
  STORE_SIZE_MISMATCH: 500,
  MIRROR_FETCH_FAILED: 502,
  CONTENT_UNVERIFIED: 502,
  // The site a mirror fetched from was too slow: the caller's origin, not a dependency of the station.
  MIRROR_TIMEOUT: 504,
  MIRROR_TOO_SLOW: 504,
  // The station's disk failed a read or write (EIO, a file system turned read-only): its operator must look.
  STORAGE_ERROR: 503,
  INSUFFICIENT_STORAGE: 507,

  // A dependency down (503), answering unusably (502) or too slowly (504).
  CONTENT_STORE_DOWN: 503,
  CONTENT_STORE_FAILED: 502,
  CONTENT_STORE_TIMEOUT: 504,
  INDEXER_DOWN: 503,
  INDEXER_FAILED: 502,
  INDEXER_TIMEOUT: 504,
  MAIL_DOWN: 503,
  MAIL_FAILED: 502,
  MAIL_TIMEOUT: 504,
};

/**
 * The headers an answer of `error` carries besides its body: the scheme to authenticate with on a 401, and
 * when to come back if the error says so (docs/api-contract.md §6).
 */
export function errorHeaders(error: StationError, status: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Nostr';
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return headers;
}

/**
 * A refusal answered with another status than its code's: a route keeping what its clients expect
 * (`/api/myGPS` answers NOT_REGISTERED with 404: UPlanet pages read it as "not known here").
 */
export class AnswerWithStatus extends StationError {
  constructor(
    readonly status: number,
    error: StationError,
  ) {
    super(error.code, error.detail, { retryAfterSeconds: error.retryAfterSeconds, cause: error });
  }
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

export function statusOfError(error: StationError): number {
  return error instanceof AnswerWithStatus ? error.status : STATUS[error.code];
}
