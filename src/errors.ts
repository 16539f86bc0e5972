/**
 * What can go wrong, by meaning, with the stable code every refusal carries (docs/api-contract.md §6: bodies
 * are `{detail, code}`). Services, stores and clients throw these; how a code is answered (its HTTP status,
 * its headers) is the HTTP layer's business alone: src/http/error-status.ts.
 */
import {
  DEPENDENCY_CODES,
  FAILURE_CODES,
  type ConflictCode,
  type Dependency,
  type DependencyFailure,
  type ErrorCode,
  type ForbiddenCode,
  type InvalidInputCode,
  type NotFoundCode,
  type TooLargeCode,
  type TryLaterCode,
  type UnauthenticatedCode,
} from './error-codes.js';
import type { Localized } from './i18n/localized.js';

export type * from './error-codes.js';
export type { Localized };

export interface StationErrorOptions {
  /** When trying again makes sense, in seconds. */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/**
 * A failure with a stable code and the `detail` a client reads, in both languages: the error handler picks
 * one per request, the code never changes with it; `message` is the English text (logs, `X-Reason`).
 */
export class StationError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly detail: Localized,
    options: StationErrorOptions = {},
  ) {
    super(detail.en, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class InvalidInput extends StationError {
  constructor(code: InvalidInputCode, detail: Localized) {
    super(code, detail);
  }
}

export class Unauthenticated extends StationError {
  constructor(code: UnauthenticatedCode, detail: Localized) {
    super(code, detail);
  }
}

export class Forbidden extends StationError {
  constructor(code: ForbiddenCode, detail: Localized) {
    super(code, detail);
  }
}

export class NotFound extends StationError {
  constructor(code: NotFoundCode, detail: Localized) {
    super(code, detail);
  }
}

export class Conflict extends StationError {
  constructor(code: ConflictCode, detail: Localized) {
    super(code, detail);
  }
}

export class TooLarge extends StationError {
  constructor(code: TooLargeCode, detail: Localized) {
    super(code, detail);
  }
}

export class TryLater extends StationError {
  constructor(code: TryLaterCode, detail: Localized, retryAfterSeconds?: number) {
    super(code, detail, { retryAfterSeconds });
  }
}

/**
 * A dependency (content store, indexer, mail) that is down, failing or too slow; code e.g. `INDEXER_DOWN`.
 * `retryAfterSeconds` when the station knows it will not ask the dependency again before then.
 */
export class DependencyError extends StationError {
  constructor(
    readonly dependency: Dependency,
    readonly kind: DependencyFailure,
    detail: Localized,
    retryAfterSeconds?: number,
  ) {
    super(`${DEPENDENCY_CODES[dependency]}_${FAILURE_CODES[kind]}`, detail, { retryAfterSeconds });
  }
}
