import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../http/schemas.js';
import type { StationApp } from '../../http/station-app.js';
import { mediaTypeOf } from '../blobs/service.js';
import { declaredHash } from './headers.js';
import { fetchPublic } from './public-fetch.js';
import { BlobDescriptorBody, MirrorRequest } from './schemas.js';
import { uploadSteps } from './upload-routes.js';

/**
 * BUD-04 `PUT /mirror`: the station fetches a blob from a public URL into the caller's drive. The fetch holds
 * the caller's upload slots, so it ends at MIRROR_DEADLINE, when the origin falls under
 * MIRROR_MIN_BYTES_PER_S, or as soon as the caller hangs up: otherwise an origin dripping a byte at a time
 * keeps a user's slots (and, with open registration, any number of users' slots) taken.
 */
export async function blossomMirrorRoutes(app: StationApp): Promise<void> {
  const { localUser, withSlots, room, keep } = uploadSteps(app);

  app.put(
    '/mirror',
    {
      schema: {
        summary:
          'BUD-04: copy a blob from a public URL into your drive; kind-24242 token with t=upload and its x',
        tags: ['blossom'],
        body: MirrorRequest,
        response: {
          200: BlobDescriptorBody,
          201: BlobDescriptorBody,
          ...errorResponses(400, 401, 403, 409, 413, 429, 502, 504),
        },
      },
    },
    async (request, reply) => {
      const declared = declaredHash(request);
      const grant = await app.blossomGate.check(request, 'upload', declared);
      const user = await localUser(grant);
      const { mirrorMaxBytes, mirrorTimeoutMs, mirrorTrustedOrigins, mirrorPace } = app.config.blossom;
      const caller = whileConnected(request, reply);
      try {
        return await withSlots(request, user, async () => {
          const maxBytes = Math.min(mirrorMaxBytes, await room(user));
          const origin = await fetchPublic(request.body.url, {
            maxBytes,
            timeoutMs: mirrorTimeoutMs,
            trustedOrigins: mirrorTrustedOrigins,
            pace: mirrorPace,
            signal: caller.signal,
          });
          // One iterator, closed on any failure of staging (before or while reading): the origin's socket
          // must never wait for a reader that gave up.
          const reader = origin.body[Symbol.asyncIterator]();
          const body = { [Symbol.asyncIterator]: () => reader };
          const staged = await app.blobs.receive(user, body).catch(async (error: unknown) => {
            await reader.return?.();
            throw error;
          });
          const source = { kind: 'mirror' as const, url: origin.url };
          const type = mediaTypeOf(origin.contentType);
          return keep(request, reply, grant, user, staged, { type, source, declared, mismatch: 'conflict' });
        });
      } finally {
        caller.done();
      }
    },
  );
}

/**
 * A signal aborted when the client hangs up before its answer is sent. Its reason is the error Node gives a
 * request its client aborted, so the error handler logs it as the caller's story, not as a failure.
 */
function whileConnected(request: FastifyRequest, reply: FastifyReply) {
  const controller = new AbortController();
  const hangUp = () => {
    if (reply.raw.writableFinished) return;
    controller.abort(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  };
  reply.raw.once('close', hangUp);
  if (request.raw.socket.destroyed) hangUp();
  return { signal: controller.signal, done: () => reply.raw.off('close', hangUp) };
}
