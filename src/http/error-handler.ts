import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DependencyError, StationError, type ErrorCode } from '../errors.js';
import type { Language, Localized } from '../i18n/localized.js';
import { errorHeaders, statusOf, statusOfError } from './error-status.js';
import { sendErrorPage, wantsErrorPage, wantsNotFoundPage } from './error-page.js';
import { fastifyAnswer, validationDetail } from './fastify-errors.js';
import { answerLanguage, pageLanguage } from './request-language.js';
import { closeIfBodyUnread } from './announced-length.js';

export interface ErrorBody {
  detail: string;
  code: ErrorCode;
}

const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);
/** The disk failed rather than filled up: an I/O error, or a file system the kernel turned read-only. */
const STORAGE_FAILURE_CODES = new Set(['EIO', 'EROFS']);

/** One of `codes` anywhere in the cause chain: libraries (blockstore, LMDB) wrap the file system's error. */
function hasCode(error: unknown, codes: ReadonlySet<string>, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return (typeof code === 'string' && codes.has(code)) || hasCode(cause, codes, depth + 1);
}

/** An answer before its language is chosen: the detail in both (docs/api-contract.md §6). */
type Answer = { status: number; code: ErrorCode; detail: Localized };

/** An answer whose status is its code's (error-status.ts). */
const answer = (code: ErrorCode, detail: Localized): Answer => ({ status: statusOf(code), code, detail });

const INTERNAL: Localized = { en: 'Internal error', fr: 'Erreur interne' };

function toAnswer(error: FastifyError | StationError | Error): Answer {
  if (error instanceof StationError)
    return { status: statusOfError(error), code: error.code, detail: error.detail };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return answer('VALIDATION_FAILED', validationDetail(fastifyError));
  // The disk (staging, content store, a drive, the databases) refused a write: the request was fine, the
  // station cannot keep it now. Nothing was half-written (temp file then rename everywhere, one LMDB
  // transaction per change). A disk that failed (EIO) rather than filled up is told apart: 503, logged.
  if (hasCode(error, NO_SPACE_CODES))
    return answer('INSUFFICIENT_STORAGE', {
      en: 'The station’s disk is full; nothing was written. Try again later or ask its operator.',
      fr: 'Le disque de la station est plein ; rien n’a été écrit. Réessayez plus tard ou prévenez son opérateur.',
    });
  if (hasCode(error, STORAGE_FAILURE_CODES))
    return answer('STORAGE_ERROR', {
      en: 'The station’s storage failed (an input/output error); this request was not carried out. Try again later or ask its operator.',
      fr: 'Le stockage de la station a échoué (une erreur d’entrée-sortie) ; cette demande n’a pas été exécutée. Réessayez plus tard ou prévenez son opérateur.',
    });
  const mapped = fastifyAnswer(fastifyError);
  if (mapped) return answer(mapped.code, mapped.detail);
  const status = fastifyError.statusCode ?? 500;
  const { message } = fastifyError;
  if (status === 429) return answer('RATE_LIMITED', { en: message, fr: `Trop de requêtes : ${message}` });
  // Busboy and other parsers throw plain errors for malformed bodies: those are the client's fault.
  if (status >= 400 && status < 500)
    return { status, code: 'BAD_REQUEST', detail: { en: message, fr: `Requête refusée : ${message}` } };
  if (/multipart|boundary|unexpected end of form/i.test(error.message))
    return answer('MALFORMED_MULTIPART', { en: 'Malformed multipart body', fr: 'Corps multipart mal formé' });
  return answer('INTERNAL', INTERNAL);
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
function logFailure(request: FastifyRequest, error: Error, { status, code, detail }: Answer): void {
  if (status >= 500 && !(error instanceof DependencyError) && !isAbortedByClient(error))
    request.log.error({ err: error }, 'request failed');
  else request.log.debug({ code, status }, detail.en);
}

/** The body in `lang`; the code is the same in every language. */
const bodyIn = ({ code, detail }: Answer, lang: Language): ErrorBody => ({ detail: detail[lang], code });

/**
 * One answer for every error: `{detail, code}`, the detail in the client's language (the page's, when the
 * error is shown as a page), `X-Reason` in English (header values are Latin-1).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const answered = toAnswer(error);
    const { status } = answered;
    logFailure(request, error, answered);
    if (error instanceof StationError) reply.headers(errorHeaders(error, status));
    reply.header('x-reason', reasonHeader(answered.detail.en));
    closeIfBodyUnread(request, reply);
    if (wantsErrorPage(request))
      return sendErrorPage(request, reply, status, bodyIn(answered, pageLanguage(request)));
    return reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(bodyIn(answered, answerLanguage(request)));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const answered = answer('NOT_FOUND', {
      en: `No route for ${request.method} ${path}`,
      fr: `Aucune route pour ${request.method} ${path}`,
    });
    reply.header('x-reason', reasonHeader(answered.detail.en));
    if (wantsNotFoundPage(request))
      return sendErrorPage(request, reply, 404, bodyIn(answered, pageLanguage(request)));
    return reply.status(404).send(bodyIn(answered, answerLanguage(request)));
  });
}
