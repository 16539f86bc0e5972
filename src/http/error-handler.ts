import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DependencyError, StationError, type ErrorCode } from '../errors.js';
import { errorHeaders, statusOf, statusOfError } from './error-status.js';
import { sendErrorPage, wantsErrorPage, wantsNotFoundPage } from './error-page.js';

export interface ErrorBody {
  detail: string;
  code: ErrorCode;
}

/** Fastify's own error codes mapped to our stable ones; anything unknown in the 4xx range keeps its status. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'EMPTY_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_CONTENT_LENGTH',
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_PARTS_LIMIT: 'TOO_MANY_PARTS',
  FST_FILES_LIMIT: 'TOO_MANY_FILES',
  FST_FIELDS_LIMIT: 'TOO_MANY_FIELDS',
  FST_PROTO_VIOLATION: 'MALFORMED_MULTIPART',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'NOT_MULTIPART',
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: 'INTERNAL',
};

const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** The disk failed rather than filled up: an I/O error, or a file system the kernel turned read-only. */
const STORAGE_FAILURE_CODES = new Set(['EIO', 'EROFS']);

/** One of `codes` anywhere in the cause chain: libraries (blockstore, LMDB) wrap the file system's error. */
function hasCode(error: unknown, codes: ReadonlySet<string>, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return (typeof code === 'string' && codes.has(code)) || hasCode(cause, codes, depth + 1);
}

type Answer = { status: number; body: ErrorBody };

/** An answer whose status is its code's (error-status.ts). */
const answer = (code: ErrorCode, detail: string): Answer => ({
  status: statusOf(code),
  body: { detail, code },
});

function toBody(error: FastifyError | StationError | Error): Answer {
  if (error instanceof StationError)
    return { status: statusOfError(error), body: { detail: error.message, code: error.code } };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'request';
    return answer('VALIDATION_FAILED', `Invalid ${context}: ${fastifyError.message}`);
  }
  // The disk (staging, content store, a drive, the databases) refused a write: the request was fine, the
  // station cannot keep it now. Nothing was half-written (temp file then rename everywhere, one LMDB
  // transaction per change). A disk that failed (EIO) rather than filled up is told apart: 503, logged.
  if (hasCode(error, NO_SPACE_CODES)) {
    const detail = 'The station’s disk is full; nothing was written. Try again later or ask its operator.';
    return answer('INSUFFICIENT_STORAGE', detail);
  }
  if (hasCode(error, STORAGE_FAILURE_CODES)) {
    const detail =
      'The station’s storage failed (an input/output error); this request was not carried out. Try again later or ask its operator.';
    return answer('STORAGE_ERROR', detail);
  }
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) return answer(mapped, fastifyError.message);
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) return answer('RATE_LIMITED', fastifyError.message);
  // Busboy and other parsers throw plain errors for malformed bodies: those are the client's fault.
  if (status >= 400 && status < 500)
    return { status, body: { detail: fastifyError.message, code: 'BAD_REQUEST' } };
  if (/multipart|boundary|unexpected end of form/i.test(error.message))
    return answer('MALFORMED_MULTIPART', 'Malformed multipart body');
  return answer('INTERNAL', 'Internal error');
}

/**
 * The detail again as `X-Reason` (BUD-01), for answers without a body (HEAD) and clients that read only
 * headers; header values are Latin-1, so anything else becomes `?`.
 */
export function reasonHeader(detail: string): string {
  return detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

/** The client went away in the middle of its request: nothing failed on the station's side. */
const isAbortedByClient = (error: Error) =>
  (error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted';

/**
 * Unexpected failures with their stack, at `error`. Not one line per request for a dependency's outage: its
 * client logs the outage once when it starts and once when it ends (src/outage-log.ts). A caller's mistake
 * or a closed connection is the caller's story: `debug`.
 */
function logFailure(request: FastifyRequest, error: Error, status: number, body: ErrorBody): void {
  if (status >= 500 && !(error instanceof DependencyError) && !isAbortedByClient(error))
    request.log.error({ err: error }, 'request failed');
  else request.log.debug({ code: body.code, status }, body.detail);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toBody(error);
    logFailure(request, error, status, body);
    if (error instanceof StationError) reply.headers(errorHeaders(error, status));
    reply.header('x-reason', reasonHeader(body.detail));
    if (wantsErrorPage(request)) return sendErrorPage(request, reply, status, body);
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const detail = `No route for ${request.method} ${request.url.split('?')[0]}`;
    reply.header('x-reason', reasonHeader(detail));
    if (wantsNotFoundPage(request)) return sendErrorPage(request, reply, 404, { detail, code: 'NOT_FOUND' });
    return reply.status(404).send({ detail, code: 'NOT_FOUND' });
  });
}
