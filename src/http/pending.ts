import type { FastifyInstance } from 'fastify';
import { NotFoundError } from './errors.js';

/**
 * UPassport routes whose replacement is not written yet. They exist so a client gets a sentence naming what
 * to use, not a bare "no route". Hidden from /docs: they document nothing but their absence.
 */
export async function pendingRoutes(app: FastifyInstance): Promise<void> {
  app.post('/upload2ipfs', { schema: { hide: true } }, async (_request, reply) => {
    // The body (a file, maybe large) is never read: the connection ends with the answer instead of draining it.
    reply.header('connection', 'close');
    throw new NotFoundError(
      'NOT_IMPLEMENTED_YET',
      'POST /upload2ipfs (NIP-96) is not available on this station yet; upload to the drive with POST /api/upload or /api/fileupload (multipart npub, file) meanwhile.',
    );
  });
}
