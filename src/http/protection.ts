import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import type { Config } from '../config/config.js';
import { connectSources } from './csp.js';
import { securityHeaders } from './security-headers.js';
import { trustedAddresses } from './trusted.js';

/**
 * Per-IP rate limiting (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW, 429 with Retry-After) with the TRUSTED_IPS
 * allow-list, and security headers on every answer. The client IP is `request.ip`, which Fastify takes
 * from X-Forwarded-For only when the peer is one of TRUSTED_PROXIES: a client cannot make itself trusted by
 * sending the header. Limits are counted per process; a PM2 cluster of N workers allows up to N times more.
 */
export async function registerProtection(app: FastifyInstance, config: Config): Promise<void> {
  const connectSrc = connectSources(app, config);
  const trusted = trustedAddresses(config.trustedIps);
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowSeconds * 1000,
    allowList: (request) => trusted(request.ip),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests from this address: at most ${context.max} per ${config.rateLimit.windowSeconds} s; retry in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
  const headerOptions = (form: string): HelmetOptions => ({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        // Pages load their bundles and stylesheet from this service only; images may come from the gateway
        // (drive thumbnails) and from the camera (blob:/data: for the QR scanner); sockets go to the
        // station's relays only.
        'script-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', config.ipfsGateway],
        'media-src': ["'self'", 'blob:', config.ipfsGateway],
        'connect-src': connectSrc.sources(form),
        'upgrade-insecure-requests': null,
      },
    },
    // The API is called cross-origin by station tools; pages do not need isolation from their popups.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  securityHeaders(app, headerOptions, connectSrc.formOf);
}
