import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One line per answered request, at `debug`, instead of Fastify's two at `info`: at the default level the
 * terminal tells what happened on the station (the services' own lines: a file uploaded, a like paid)
 * rather than every `/health` poll. The query string is left out: it may name people (e-mail addresses,
 * keys). A failed request is logged by the error handler (error-handler.ts).
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (request.log.level !== 'debug' && request.log.level !== 'trace') return;
    request.log.debug(
      {
        method: request.method,
        path: request.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        ...(error ? { err: error } : {}),
      },
      'request',
    );
  }
}
