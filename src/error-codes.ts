/**
 * Every stable code the station answers with (docs/api-contract.md §6: bodies are `{detail, code}`), grouped
 * by meaning; src/errors.ts throws them, src/http/error-status.ts gives each its HTTP status.
 */

/** The caller sent something unusable: a bad field, path, key, header or file. */
export type InvalidInputCode =
  | 'BAD_CONTENT_LENGTH'
  | 'BAD_COORDINATES'
  | 'BAD_DEG'
  | 'BAD_PUBKEY'
  | 'BAD_REQUEST'
  | 'BAD_URL'
  | 'COOKIE_FILE'
  | 'COOKIE_LINE_TOO_LONG'
  | 'EMPTY_BODY'
  | 'INVALID_COOKIE_DOMAIN'
  | 'INVALID_COORDINATES'
  | 'INVALID_CREDENTIAL'
  | 'INVALID_CURSOR'
  | 'INVALID_DOMAIN'
  | 'INVALID_EMAIL'
  | 'INVALID_FILE_PATH'
  | 'INVALID_G1PUB'
  | 'INVALID_IPFS_PATH'
  | 'INVALID_LENGTH'
  | 'INVALID_LIMIT'
  | 'INVALID_NPUB'
  | 'INVALID_PUBKEY'
  | 'INVALID_SHA256'
  | 'INVALID_YEAR'
  | 'LENGTH_REQUIRED'
  | 'MALFORMED_COOKIE_LINE'
  | 'MALFORMED_JSON'
  | 'MALFORMED_MULTIPART'
  | 'MALFORMED_REQUEST'
  | 'METHOD_NOT_ALLOWED'
  | 'MIRROR_URL_REFUSED'
  | 'MISSING_FILE'
  | 'MISSING_G1PUB'
  | 'MISSING_G1PUBS'
  | 'MULTI_DOMAIN_COOKIES'
  | 'NOT_A_COOKIE_FILE'
  | 'NOT_A_DIRECTORY'
  | 'NOT_A_FILE'
  | 'NOT_ACCEPTABLE'
  | 'NOT_MULTIPART'
  | 'PRE_STRETCH_UNSUPPORTED'
  | 'PUBLIC_SUFFIX_COOKIE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'REQUEST_TIMEOUT'
  | 'TOO_MANY_KEYS'
  | 'UNEXPECTED_FILE'
  | 'UNSUPPORTED_FORMAT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'VALIDATION_FAILED';

/** The caller did not prove who it is, or its proof does not hold (NIP-98, NIP-42, Blossom tokens). */
export type UnauthenticatedCode =
  | 'AUTH_BAD_SIGNATURE'
  | 'AUTH_CHALLENGE_INVALID'
  | 'AUTH_CHALLENGE_NOT_ISSUED'
  | 'AUTH_CHALLENGE_OTHER_ADDRESS'
  | 'AUTH_CHALLENGE_OTHER_KEY'
  | 'AUTH_EXPIRED'
  | 'AUTH_MALFORMED'
  | 'AUTH_METHOD_MISMATCH'
  | 'AUTH_NOT_FOUND'
  | 'AUTH_PAYLOAD_MISMATCH'
  | 'AUTH_REPLAYED'
  | 'AUTH_REQUIRED'
  | 'AUTH_URL_MISMATCH'
  | 'AUTH_WRONG_KIND'
  | 'BLOSSOM_AUTH_BAD_SIGNATURE'
  | 'BLOSSOM_AUTH_EXPIRED'
  | 'BLOSSOM_AUTH_FUTURE'
  | 'BLOSSOM_AUTH_MALFORMED'
  | 'BLOSSOM_AUTH_NO_EXPIRATION'
  | 'BLOSSOM_AUTH_REQUIRED'
  | 'BLOSSOM_AUTH_WRONG_BLOB'
  | 'BLOSSOM_AUTH_WRONG_KIND'
  | 'BLOSSOM_AUTH_WRONG_SERVER'
  | 'BLOSSOM_AUTH_WRONG_VERB'
  | 'PROOF_REQUIRED';

/** The caller is known, but this is not theirs to do. */
export type ForbiddenCode =
  'NOT_LOCAL_USER' | 'NOT_REGISTERED' | 'NOT_YOUR_LIST' | 'NPUB_MISMATCH' | 'ORIGIN_NOT_ALLOWED';

export type NotFoundCode =
  | 'BLOB_NOT_FOUND'
  | 'CONTENT_NOT_FOUND'
  | 'COOKIE_NOT_FOUND'
  | 'FILE_NOT_FOUND'
  | 'FOLLOWS_NOT_FOUND'
  | 'GPS_NOT_SET'
  | 'NOT_FOUND'
  | 'NO_WALLET'
  | 'PLAYLIST_NOT_FOUND'
  | 'PROFILE_NOT_FOUND'
  | 'UNKNOWN_USER';

/** The request contradicts what the station holds already. */
export type ConflictCode = 'BLOB_HASH_MISMATCH' | 'KEY_EXISTS' | 'NAME_TAKEN' | 'USER_EXISTS';

/** More bytes, parts or lines than the station takes. */
export type TooLargeCode =
  | 'BODY_TOO_LARGE'
  | 'CHUNK_EXTENSIONS_TOO_LARGE'
  | 'COOKIE_FILE_TOO_LARGE'
  | 'DAG_TOO_LARGE'
  | 'FILE_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'MIRROR_TOO_LARGE'
  | 'QUOTA_EXCEEDED'
  | 'TOO_MANY_FIELDS'
  | 'TOO_MANY_FILES'
  | 'TOO_MANY_PARTS'
  | 'URI_TOO_LONG';

/** Fine, but not now: the caller or the station is at a limit for the moment. */
export type TryLaterCode =
  | 'DRIVE_BUSY'
  | 'OVERLOADED'
  | 'RATE_LIMITED'
  | 'STATION_BUSY'
  | 'UPLOAD_CONCURRENCY_LIMITED'
  | 'UPLOAD_RATE_LIMITED';

/** The station failed, or a site it fetched from for the caller did: a bug, an inconsistency, a full disk. */
export type StationFailureCode =
  | 'CID_MISMATCH'
  | 'CONTENT_UNVERIFIED'
  | 'INSUFFICIENT_STORAGE'
  | 'INTERNAL'
  | 'MIRROR_FETCH_FAILED'
  | 'MIRROR_TIMEOUT'
  | 'MIRROR_TOO_SLOW'
  | 'STORAGE_ERROR'
  | 'STORE_SIZE_MISMATCH';

/** The services the station leans on, by the name their messages use, and the code prefix of each. */
export const DEPENDENCY_CODES = {
  'content store': 'CONTENT_STORE',
  indexer: 'INDEXER',
  mail: 'MAIL',
} as const;
export type Dependency = keyof typeof DEPENDENCY_CODES;
/** Down: cannot be reached. Failed: answered, unusably. Timeout: did not answer in time. */
export type DependencyFailure = 'down' | 'failed' | 'timeout';
export const FAILURE_CODES = { down: 'DOWN', failed: 'FAILED', timeout: 'TIMEOUT' } as const;
export type DependencyCode =
  `${(typeof DEPENDENCY_CODES)[Dependency]}_${(typeof FAILURE_CODES)[DependencyFailure]}`;

export type ErrorCode =
  | InvalidInputCode
  | UnauthenticatedCode
  | ForbiddenCode
  | NotFoundCode
  | ConflictCode
  | TooLargeCode
  | TryLaterCode
  | StationFailureCode
  | DependencyCode;
