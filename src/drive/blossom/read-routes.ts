import { Type } from 'typebox';
import { InvalidInput, Forbidden } from '../../errors.js';
import { inAnswerLanguage } from '../../http/request-language.js';
import { errorResponses } from '../../http/schemas.js';
import type { StationApp } from '../../http/station-app.js';
import { isSha256 } from './auth.js';
import { BlobDescriptorBody, BlobParams, DeletedBody, ListParams, ListQuery } from './schemas.js';
import { BLOB_BYTES, blobHash, blobNotFound, blobServer } from './serve-routes.js';

const TAGS = ['blossom'];

/** BUD-01 (GET/HEAD a blob), BUD-12 (list a user's blobs, delete one's own copy). */
export async function blossomReadRoutes(app: StationApp): Promise<void> {
  const serve = blobServer(app);
  const blobSchema = (summary: string) => ({
    summary,
    tags: TAGS,
    params: BlobParams,
    response: { 200: BLOB_BYTES, 206: BLOB_BYTES, ...errorResponses(400, 404, 416, 429, 502, 503, 504) },
  });
  app.get('/:blob', { schema: blobSchema('BUD-01: a blob by its SHA-256'), exposeHeadRoute: false }, serve);
  app.head('/:blob', { schema: blobSchema('BUD-01: whether a blob exists, its type and size') }, serve);

  app.delete(
    '/:blob',
    {
      schema: {
        summary: 'BUD-12: take a blob out of the caller’s drive (kind-24242 token, t=delete)',
        tags: TAGS,
        params: BlobParams,
        response: { 200: DeletedBody, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const sha256 = blobHash(request.params.blob);
      if (!sha256) return reply.callNotFound();
      const grant = await app.blossomGate.check(request, 'delete', sha256);
      const user = await app.users.findByHex(grant.pubkey);
      if (!user)
        throw new Forbidden('NOT_LOCAL_USER', {
          en: 'This key has no drive on this station.',
          fr: 'Cette clé n’a pas de uDRIVE sur cette station.',
        });
      if (!app.blobs.heldBy(user.hex, sha256)) throw blobNotFound();
      await app.blossomGate.spend(grant, sha256);
      await app.blobs.remove(user, sha256);
      const message = inAnswerLanguage(request, {
        en: 'Blob deleted from your drive.',
        fr: 'Blob supprimé de votre uDRIVE.',
      });
      return { status: 'success' as const, message, sha256 };
    },
  );

  app.get(
    '/list/:pubkey',
    {
      schema: {
        summary: 'BUD-12: the blobs a user uploaded, newest first',
        description: 'Open unless BLOSSOM_LIST_AUTH is set; then a kind-24242 token of that key with t=list.',
        tags: TAGS,
        params: ListParams,
        querystring: ListQuery,
        response: { 200: Type.Array(BlobDescriptorBody), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const pubkey = request.params.pubkey.toLowerCase();
      if (!isSha256(pubkey))
        throw new InvalidInput('INVALID_PUBKEY', {
          en: 'The pubkey must be 64 hex characters.',
          fr: 'La clé publique doit faire 64 caractères hexadécimaux.',
        });
      if (app.config.blossom.listRequiresAuth) {
        const grant = await app.blossomGate.check(request, 'list');
        if (grant.pubkey !== pubkey)
          throw new Forbidden('NOT_YOUR_LIST', {
            en: 'Only the key itself lists its blobs.',
            fr: 'Seule la clé elle-même peut lister ses blobs.',
          });
      }
      const since = request.query.since === undefined ? undefined : Number(request.query.since);
      const until = request.query.until === undefined ? undefined : Number(request.query.until);
      const limit = Math.min(Math.max(Number(request.query.limit ?? 1000), 1), 1000);
      const { cursor } = request.query;
      let blobs = app.blobs
        .owned(pubkey)
        .filter(
          (b) => (since === undefined || b.uploaded >= since) && (until === undefined || b.uploaded <= until),
        );
      if (cursor) {
        const at = blobs.findIndex((b) => b.sha256 === cursor);
        blobs = at === -1 ? [] : blobs.slice(at + 1);
      }
      const links = app.publicUrls(request);
      return blobs.slice(0, limit).map((blob) => app.blobs.descriptor(blob, links));
    },
  );
}
