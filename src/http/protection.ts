import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import type { Config } from '../config/config.js';
import { TryLater } from '../errors.js';
import { pageSources } from './csp.js';
import { securityHeaders } from './security-headers.js';
import { trustedAddresses } from './trusted.js';

/**
 * Per-IP rate limiting (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW, 429 with Retry-After) with the TRUSTED_IPS
 * allow-list, and security headers on every answer. The client IP is `request.ip`, which Fastify takes
 * from X-Forwarded-For only when the peer is one of TRUSTED_PROXIES: a client cannot make itself trusted by
 * sending the header. Limits are counted per process; a PM2 cluster of N workers allows up to N times more.
 */
export async function registerProtection(app: FastifyInstance, config: Config): Promise<void> {
  const sources = pageSources(app, config);
  const trusted = trustedAddresses(config.trustedIps);
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowSeconds * 1000,
    allowList: (request) => trusted(request.ip),
    // Thrown as it is: the one error handler answers it in the client's language, with Retry-After.
    errorResponseBuilder: (_request, context) => {
      const [max, window, retry] = [
        context.max,
        config.rateLimit.windowSeconds,
        Math.ceil(context.ttl / 1000),
      ];
      return new TryLater(
        'RATE_LIMITED',
        {
          en: `Too many requests from this address: at most ${max} per ${window} s; retry in ${retry} s.`,
          fr: `Trop de requêtes depuis cette adresse : au plus ${max} par ${window} s ; réessayez dans ${retry} s.`,
        },
        retry,
      );
    },
  });
  const headerOptions = (variant: string): HelmetOptions => ({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        // Pages load their bundles and stylesheet from this service only; images may come from the gateway
        // (drive thumbnails, at the address this client is given: csp.ts) and from the camera (blob:/data:
        // for the QR scanner); sockets go to the station's relays only.
        'script-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', ...sources.media(variant)],
        'media-src': ["'self'", 'blob:', ...sources.media(variant)],
        'connect-src': sources.connect(variant),
        'upgrade-insecure-requests': null,
      },
    },
    // The API is called cross-origin by station tools; pages do not need isolation from their popups.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  securityHeaders(app, headerOptions, (request) => sources.variantOf(request));
}
