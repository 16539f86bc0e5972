import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { InvalidInput, NotFound } from '../../errors.js';
import { documentResponse } from '../../http/schemas.js';
import type { StationApp, StationRequest } from '../../http/station-app.js';
import { parseRange } from '../store/http-range.js';
import type { BlobParams } from './schemas.js';

/** `<sha256>` or `<sha256>.<ext>` (BUD-01, NIP-96 downloads); anything else is not a blob. */
const BLOB_PATH = /^([0-9a-f]{64})(\.[A-Za-z0-9]{1,12})?$/;

export function blobHash(param: string): string | null {
  return BLOB_PATH.exec(param)?.[1] ?? null;
}

/** The OpenAPI answer of a blob download: its bytes, in its own type. */
export const BLOB_BYTES = documentResponse(
  'application/octet-stream',
  'The blob’s bytes, in its own Content-Type',
);

export const blobNotFound = () =>
  new NotFound('BLOB_NOT_FOUND', {
    en: 'No blob with this SHA-256 on this station.',
    fr: 'Aucun blob de ce SHA-256 sur cette station.',
  });

/** Blobs are immutable: a year of caching, and never run as a page of the station's origin. */
function blobHeaders(reply: FastifyReply, facts: { type: string }, sha256: string): void {
  reply.header('content-type', facts.type);
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', `"${sha256}"`);
  reply.header('cache-control', 'public, max-age=31536000, immutable');
  // An uploaded HTML or SVG file must not script the station's pages: opaque origin, no sniffing.
  reply.header('content-security-policy', 'sandbox');
  reply.header('x-content-type-options', 'nosniff');
}

/**
 * GET and HEAD of a blob by hash, from the content store, whoever uploaded it and whatever they called it;
 * one byte range when asked. A path that is not a hash is the app's ordinary 404.
 */
export function blobServer(app: StationApp) {
  return async (request: StationRequest<{ params: typeof BlobParams }>, reply: FastifyReply) => {
    const sha256 = blobHash(request.params.blob);
    if (!sha256) return reply.callNotFound();
    const facts = app.blobs.find(sha256);
    if (!facts) throw blobNotFound();
    blobHeaders(reply, facts, sha256);
    const range = parseRange(request.headers.range, facts.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${facts.size}`);
      throw new InvalidInput('RANGE_NOT_SATISFIABLE', {
        en: 'The range is outside the blob.',
        fr: 'La plage demandée est hors du blob.',
      });
    }
    const start = range?.start ?? 0;
    const length = range ? range.end - range.start + 1 : facts.size;
    if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${facts.size}`);
    reply.header('content-length', length);
    if (request.method === 'HEAD') return reply.send();
    return reply.send(Readable.from(app.contentStore.cat(facts.cid, { offset: start, length })));
  };
}
