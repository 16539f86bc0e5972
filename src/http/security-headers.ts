import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { LRUCache } from 'lru-cache';

type Headers = Record<string, string>;

/** The headers helmet's middleware sets for these options, recorded once instead of set on every answer. */
export function helmetHeaders(options: HelmetOptions): Headers {
  const headers: Headers = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let finished = false;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middleware is synchronous; a future version that is not would leave answers without headers.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * helmet's headers on every answer, errors included (those that reach the route's hooks). They depend on the
 * request only through `variantOf` (the relay and gateway this client is given, see csp.ts), so helmet runs once
 * per variant and each answer gets the recorded headers: running helmet's middleware chain for every request
 * cost more than a whole `/health` answer's routing (docs/benchmarks.md, "HTTP").
 */
export function securityHeaders(
  app: FastifyInstance,
  optionsFor: (variant: string) => HelmetOptions,
  variantOf: (request: FastifyRequest) => string,
): void {
  // Variants come from client-written Host headers: bounded, like csp.ts's own cache.
  const recorded = new LRUCache<string, Headers>({ max: 256 });
  app.addHook('onRequest', (request, reply, done) => {
    const variant = variantOf(request);
    let headers = recorded.get(variant);
    if (!headers) {
      headers = helmetHeaders(optionsFor(variant));
      recorded.set(variant, headers);
    }
    reply.headers(headers);
    done();
  });
}
