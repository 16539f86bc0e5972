import { AppError, BadRequestError, PayloadTooLargeError } from '../../http/errors.js';

/** The URL itself is not one the station will fetch: wrong scheme, credentials, or a non-public address. */
export class MirrorUrlRefusedError extends BadRequestError {
  constructor(detail: string) {
    super('MIRROR_URL_REFUSED', detail);
  }
}

/** The origin could not be reached, answered with an error, stalled, or redirected too often. */
export class MirrorFetchFailedError extends AppError {
  constructor(detail: string, cause?: unknown) {
    super(502, 'MIRROR_FETCH_FAILED', detail);
    if (cause !== undefined) this.cause = cause;
  }
}

export class MirrorTooLargeError extends PayloadTooLargeError {
  constructor(detail: string) {
    super('MIRROR_TOO_LARGE', detail);
  }
}

/** An error's code (ECONNREFUSED, ENOTFOUND, …) when it has one: shorter and as telling as its message. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
