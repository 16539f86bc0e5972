import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TryLater } from '../errors.js';

export interface OverloadOptions {
  /** Mean event-loop delay (ms) above which requests are turned away; 0: never. */
  maxEventLoopDelayMs: number;
  /** Resident memory above which requests are turned away; 0: never. */
  maxRssBytes: number;
  /** How often the process is measured (ms). */
  sampleIntervalMs?: number;
}

const RETRY_AFTER_SECONDS = 10;
/** Answered even under pressure: the supervisor must see the process is alive, and why it is slow. */
const ALWAYS_ANSWERED = new Set(['/health']);

/**
 * Backpressure (docs/security.md, "Protection"): a process whose event loop lags or whose memory has grown
 * past its limit answers new requests at once with 503 and Retry-After, instead of queueing them until
 * clients time out.
 */
export async function registerOverload(app: FastifyInstance, options: OverloadOptions): Promise<void> {
  if (options.maxEventLoopDelayMs === 0 && options.maxRssBytes === 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxRssBytes: options.maxRssBytes,
    sampleInterval: options.sampleIntervalMs ?? 500,
    retryAfter: RETRY_AFTER_SECONDS,
    // A rejected promise goes to the one error handler: `{detail, code}`, Retry-After and X-Reason as usual.
    pressureHandler: (request: FastifyRequest, _reply: FastifyReply, type: string) => {
      if (ALWAYS_ANSWERED.has(request.url.split('?')[0]!)) return;
      const detail = {
        en: `The station is overloaded (${type}); retry in ${RETRY_AFTER_SECONDS} s.`,
        fr: `La station est surchargée (${type}) ; réessayez dans ${RETRY_AFTER_SECONDS} s.`,
      };
      return Promise.reject(new TryLater('OVERLOADED', detail, RETRY_AFTER_SECONDS));
    },
  });
}
