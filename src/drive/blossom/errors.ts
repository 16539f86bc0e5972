import { InvalidInput, StationError, TooLarge, type Localized } from '../../errors.js';

/** The URL itself is not one the station will fetch: wrong scheme, credentials, or a non-public address. */
export class MirrorUrlRefusedError extends InvalidInput {
  constructor(detail: Localized) {
    super('MIRROR_URL_REFUSED', detail);
  }
}

/** The origin could not be reached, answered with an error, stalled, or redirected too often. */
export class MirrorFetchFailedError extends StationError {
  constructor(detail: Localized, cause?: unknown) {
    super('MIRROR_FETCH_FAILED', detail, { cause });
  }
}

/** The origin did not send the whole blob within MIRROR_DEADLINE. */
export class MirrorTimeoutError extends StationError {
  constructor(detail: Localized) {
    super('MIRROR_TIMEOUT', detail);
  }
}

/** The origin sent less than MIRROR_MIN_BYTES_PER_S over the last MIRROR_RATE_WINDOW. */
export class MirrorTooSlowError extends StationError {
  constructor(detail: Localized) {
    super('MIRROR_TOO_SLOW', detail);
  }
}

export class MirrorTooLargeError extends TooLarge {
  constructor(detail: Localized) {
    super('MIRROR_TOO_LARGE', detail);
  }
}

/** An error's code (ECONNREFUSED, ENOTFOUND, …) when it has one: shorter and as telling as its message. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
