/**
 * Typed errors with stable codes. Every 4xx/5xx body is `{detail, code}` (CONTRACT §6); routes throw these
 * and the single error handler in `error-handler.ts` turns them into responses.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(code: string, detail: string) {
    super(400, code, detail);
  }
}

export class UnauthorizedError extends AppError {
  constructor(code: string, detail: string) {
    super(401, code, detail, { 'www-authenticate': 'Nostr' });
  }
}

export class ForbiddenError extends AppError {
  constructor(code: string, detail: string) {
    super(403, code, detail);
  }
}

export class NotFoundError extends AppError {
  constructor(code: string, detail: string) {
    super(404, code, detail);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, detail: string) {
    super(409, code, detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(code: string, detail: string) {
    super(413, code, detail);
  }
}

/** A dependency (relay, content store, indexer, mail) that is down (503), failing (502) or too slow (504). */
export class DependencyError extends AppError {
  constructor(
    readonly dependency: string,
    kind: 'down' | 'failed' | 'timeout',
    detail: string,
  ) {
    const status = kind === 'down' ? 503 : kind === 'failed' ? 502 : 504;
    super(status, `${dependency.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${kind.toUpperCase()}`, detail);
  }
}
