import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './error-handler.js';
import { StationError } from '../errors.js';
import { statusOf } from './error-status.js';

/** Longer URLs are 414, whether Node's parser or a route sees them first. */
export const MAX_URL_LENGTH = 8 * 1024;
/** How long a refused connection stays open to let the client read the answer before it is torn down. */
const LINGER_MS = 2_000;

/** Its status is its code's (error-status.ts). */
type Answer = ErrorBody;

const TOO_LONG: Answer = {
  code: 'URI_TOO_LONG',
  detail: `The request URL is longer than ${MAX_URL_LENGTH} bytes.`,
};

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
  return { code: 'HEADERS_TOO_LARGE', detail: 'The request headers are too large.' };
}

function answerFor(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): Answer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return overflowAnswer(error.rawPacket);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'CHUNK_EXTENSIONS_TOO_LARGE', detail: 'Chunk extensions are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', detail: 'The request did not arrive in time.' };
    default:
      return { code: 'MALFORMED_REQUEST', detail: 'The request is not valid HTTP/1.1.' };
  }
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
  log?.info({ code: answer.code, status, parser: failure.code }, answer.detail);
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ detail: answer.detail, code: answer.code });
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
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const answer: Answer =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? TOO_LONG
      : error.code === 'FST_ERR_BAD_URL'
        ? { code: 'BAD_URL', detail: 'The request URL is not valid (bad percent-encoding).' }
        : { code: 'INTERNAL', detail: 'Internal error' };
  void reply
    .status(statusOf(answer.code))
    .type('application/json; charset=utf-8')
    .send({ detail: answer.detail, code: answer.code });
}

/** Refuses URLs longer than MAX_URL_LENGTH that Node's parser let through. */
export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.url && request.raw.url.length > MAX_URL_LENGTH) {
      throw new StationError(TOO_LONG.code, TOO_LONG.detail);
    }
  });
}
