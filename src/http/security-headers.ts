import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers on every answer, errors included, from one middleware built at start. @fastify/helmet
 * builds the middleware again for every request (its options checked, its policy compiled); built once, with
 * csp.ts's forms remembered, a `/health` answer went from 0.30 to 0.22 ms of CPU (README, "Writes").
 * Directives given as functions (the page's own relay in `connect-src`, see csp.ts) are still evaluated per
 * request, by the middleware itself.
 */
export function securityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
