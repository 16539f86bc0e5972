import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StationError, type ErrorCode } from '../errors.js';
import { chooseLanguage } from '../i18n/language.js';
import type { Localized } from '../i18n/localized.js';
import { statusOf } from './error-status.js';

/** Longer URLs are 414, whether Node's parser or a route sees them first. */
export const MAX_URL_LENGTH = 8 * 1024;
/** How long a refused connection stays open to let the client read the answer before it is torn down. */
const LINGER_MS = 2_000;

/** Its status is its code's (error-status.ts); the detail in both languages, as every error's. */
type Answer = { code: ErrorCode; detail: Localized };

const TOO_LONG: Answer = {
  code: 'URI_TOO_LONG',
  detail: {
    en: `The request URL is longer than ${MAX_URL_LENGTH} bytes.`,
    fr: `L’URL de la requête dépasse ${MAX_URL_LENGTH} octets.`,
  },
};

const INTERNAL: Answer = { code: 'INTERNAL', detail: { en: 'Internal error', fr: 'Erreur interne' } };

/**
 * Node's parser reports an over-long request line and over-long headers alike (HPE_HEADER_OVERFLOW); the
 * bytes at hand tell them apart: a line that is (or ends) the request line, and is itself too long.
 */
function overflowAnswer(raw: Buffer | undefined): Answer {
  const text = raw?.toString('latin1') ?? '';
  const eol = text.indexOf('\r\n');
  const line = eol === -1 ? text : text.slice(0, eol);
  const startsRequest = /^[A-Z]+ /.test(line);
  const endsRequestLine = / HTTP\/\d\.\d$/.test(line);
  const requestLine =
    eol === -1 ? startsRequest : endsRequestLine && (!startsRequest || line.length > MAX_URL_LENGTH);
  if (requestLine) return TOO_LONG;
  return {
    code: 'HEADERS_TOO_LARGE',
    detail: {
      en: 'The request headers are too large.',
      fr: 'Les en-têtes de la requête sont trop volumineux.',
    },
  };
}

function answerFor(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): Answer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return overflowAnswer(error.rawPacket);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        code: 'CHUNK_EXTENSIONS_TOO_LARGE',
        detail: {
          en: 'Chunk extensions are too large.',
          fr: 'Les extensions de bloc (chunk) sont trop volumineuses.',
        },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 'REQUEST_TIMEOUT',
        detail: { en: 'The request did not arrive in time.', fr: 'La requête n’est pas arrivée à temps.' },
      };
    default:
      return {
        code: 'MALFORMED_REQUEST',
        detail: { en: 'The request is not valid HTTP/1.1.', fr: 'La requête n’est pas du HTTP/1.1 valide.' },
      };
  }
}

/**
 * The language asked for in what the parser saw of the request (`?lang=` on the request line, then an
 * `Accept-Language` line), as for any other answer; English when it says nothing (docs/api-contract.md §6).
 */
function rawLanguage(raw: Buffer | undefined) {
  const text = raw?.toString('latin1') ?? '';
  const lang = /^[A-Z]+ \S*[?&]lang=(fr|en)\b/.exec(text)?.[1];
  const acceptLanguage = /\r\naccept-language:[ \t]*([^\r\n]*)/i.exec(text)?.[1];
  return chooseLanguage({ lang, acceptLanguage }, 'en');
}

const refused = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (bad request line, bad chunked body,
 * headers or URL too large) never reaches Fastify, so it is answered here, as `{detail, code}` like every
 * other error, and the connection is closed once the client had a moment to read it.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error, socket: Socket): void {
  answerClientError(error, socket, this.log);
}

/** The same answer for a plain `node:http` server (the embedded gateway): `server.on('clientError', …)`. */
export function answerClientError(
  error: Error,
  socket: Socket,
  log?: { info(details: object, message: string): void },
): void {
  const failure = error as NodeJS.ErrnoException & { rawPacket?: Buffer };
  // Later bytes of a refused connection fail the parser again: answer once.
  if (failure.code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
  refused.add(socket);
  const answer = answerFor(failure);
  const status = statusOf(answer.code);
  log?.info({ code: answer.code, status, parser: failure.code }, answer.detail.en);
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const detail = answer.detail[rawLanguage(failure.rawPacket)];
  const body = JSON.stringify({ detail, code: answer.code });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
      body,
  );
  // Destroying at once would reset a connection the client is still writing to, and a reset can discard
  // the answer before the client reads it: drain what still comes, then close.
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(linger));
}

/** Fastify's `frameworkErrors`: a malformed URL, or a path parameter longer than the router accepts. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer: Answer =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? TOO_LONG
      : error.code === 'FST_ERR_BAD_URL'
        ? {
            code: 'BAD_URL',
            detail: {
              en: 'The request URL is not valid (bad percent-encoding).',
              fr: 'L’URL de la requête n’est pas valide (mauvais encodage en pourcentage).',
            },
          }
        : INTERNAL;
  // The URL could not be parsed: only the header tells the language.
  const lang = chooseLanguage({ acceptLanguage: request.headers['accept-language'] }, 'en');
  void reply
    .status(statusOf(answer.code))
    .type('application/json; charset=utf-8')
    .send({ detail: answer.detail[lang], code: answer.code });
}

/** Refuses URLs longer than MAX_URL_LENGTH that Node's parser let through. */
export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.url && request.raw.url.length > MAX_URL_LENGTH) {
      throw new StationError(TOO_LONG.code, TOO_LONG.detail);
    }
  });
}
