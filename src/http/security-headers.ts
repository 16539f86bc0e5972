import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers on every answer, errors included, from one middleware built at start. @fastify/helmet
 * builds the middleware again for every request (its options checked, its policy compiled): an eighth of
 * the CPU a `/health` answer cost (README, "Writes"). Directives given as functions (the page's own relay in
 * `connect-src`, see csp.ts) are still evaluated per request, by the middleware itself.
 */
export function securityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
