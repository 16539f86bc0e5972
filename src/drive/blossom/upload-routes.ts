import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Conflict, Forbidden, InvalidInput, Unauthenticated } from '../../errors.js';
import { errorResponses } from '../../http/schemas.js';
import type { StationApp } from '../../http/station-app.js';
import type { UserRecord } from '../../identity/user-files.js';
import type { StagedFile } from '../../fs/staging.js';
import type { Provenance } from '../manifest.js';
import { QuotaExceededError } from '../quota.js';
import { mediaTypeOf } from '../blobs/service.js';
import { refundOnFailure, TOKEN_SPENT, type BlossomGrant } from './auth.js';
import { declaredHash, declaredLength, wantsAnnouncement } from './headers.js';
import { BlobDescriptorBody } from './schemas.js';

const TAGS = ['blossom'];

/** What Blossom's upload routes share: the uploader, their slots, their room, and keeping the staged blob. */
export function uploadSteps(app: StationApp) {
  const localUser = async (grant: BlossomGrant): Promise<UserRecord> => {
    const user = await app.users.findByHex(grant.pubkey);
    if (!user)
      throw new Forbidden('NOT_LOCAL_USER', {
        en: 'Only users of this station upload here; register on it first.',
        fr: 'Seuls les utilisateurs de cette station envoient ici ; inscrivez-vous d’abord sur elle.',
      });
    return user;
  };

  /** Blossom uploads take the same upload slots as form uploads (docs/security.md, "Protection"). */
  const withSlots = async <T>(
    request: FastifyRequest,
    user: UserRecord,
    work: () => Promise<T>,
  ): Promise<T> => {
    const releases = [app.uploadLimits.acquireAddress(request.ip)];
    try {
      releases.push(app.uploadLimits.acquireUser(user.hex));
      return await work();
    } finally {
      releases.forEach((release) => release());
    }
  };

  const room = async (user: UserRecord) => app.drive.quotaBytes - (await app.drive.usedBytes(user));

  /** Staged bytes the token covers, kept in the uploader's drive; 201 when new, 200 when already there. */
  const keep = async (
    request: FastifyRequest,
    reply: FastifyReply,
    grant: BlossomGrant,
    user: UserRecord,
    staged: StagedFile,
    options: { type: string | null; source: Provenance; declared?: string; mismatch: 'auth' | 'conflict' },
  ) => {
    try {
      if (options.declared && options.declared !== staged.sha256)
        throw new Conflict('BLOB_HASH_MISMATCH', {
          en: 'X-SHA-256 is not the SHA-256 of the body.',
          fr: 'X-SHA-256 n’est pas le SHA-256 du corps de la requête.',
        });
      if (options.mismatch === 'conflict' && !grant.blobs.includes(staged.sha256))
        throw new Conflict('BLOB_HASH_MISMATCH', {
          en: 'The mirrored blob is not the one the token names.',
          fr: 'Le blob mis en miroir n’est pas celui que nomme le jeton.',
        });
      app.blossomGate.requireBlob(grant, staged.sha256);
      await app.blossomGate.spend(grant, staged.sha256);
    } catch (error) {
      await app.blobs.discard(staged);
      throw error;
    }
    const kept = await refundOnFailure(app.blossomGate, grant, staged.sha256, () =>
      app.blobs.keep(user, staged, { type: options.type, source: options.source }),
    );
    // The blob's URLs on the host this client reached (src/http/public-urls.ts), PUBLIC_URL when set.
    const links = app.publicUrls(request);
    if (kept.created && wantsAnnouncement(request))
      void app.fileMetadata.publish(user, app.blobs.metadata(kept.blob, {}, links));
    else if (kept.created) app.fileMetadata.decline();
    request.log.debug(
      { sha256: kept.blob.sha256, size: kept.blob.size, cid: kept.blob.cid },
      'blossom: blob stored',
    );
    return reply.status(kept.created ? 201 : 200).send(app.blobs.descriptor(kept.blob, links));
  };

  return { localUser, withSlots, room, keep };
}

/**
 * BUD-02 `PUT /upload` (the raw body) and BUD-06 `HEAD /upload` (may it be uploaded?); BUD-04 `PUT /mirror` is
 * mirror-routes.ts. Only this station's users upload, each into their own drive.
 */
export async function blossomUploadRoutes(app: StationApp): Promise<void> {
  const { localUser, withSlots, room, keep } = uploadSteps(app);

  await app.register(async (raw) => {
    // The body is the blob, whatever its type (JSON included): streamed as it comes, never parsed.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // A refusal before the body is read ends the connection rather than drain a large upload.
    raw.addHook('onSend', async (request, reply) => {
      if (reply.statusCode >= 400 && !request.raw.complete) reply.header('connection', 'close');
    });
    raw.put(
      '/upload',
      {
        config: { rawBody: true },
        schema: {
          summary:
            'BUD-02: upload a blob (raw body) into your drive; kind-24242 token with t=upload and its x',
          tags: TAGS,
          response: {
            200: BlobDescriptorBody,
            201: BlobDescriptorBody,
            ...errorResponses(400, 401, 403, 409, 413, 429),
          },
        },
      },
      async (request, reply) => {
        const declared = declaredHash(request);
        const grant = await app.blossomGate.check(request, 'upload', declared);
        const user = await localUser(grant);
        const length = declaredLength(request, 'content-length');
        if (length !== undefined && length > (await room(user)))
          throw new QuotaExceededError(app.drive.quotaBytes);
        return withSlots(request, user, async () => {
          // No body at all (an empty blob) reaches no parser.
          const body = (request.body as AsyncIterable<Uint8Array> | undefined) ?? Readable.from([]);
          const staged = await app.blobs.receive(user, body);
          const type = mediaTypeOf(request.headers['content-type']);
          const source = { kind: 'blossom' as const };
          return keep(request, reply, grant, user, staged, { type, source, declared, mismatch: 'auth' });
        });
      },
    );

    raw.head(
      '/upload',
      {
        schema: {
          summary: 'BUD-06: would this upload be accepted? (X-SHA-256, X-Content-Length, X-Content-Type)',
          tags: TAGS,
          response: errorResponses(400, 401, 403, 411, 413, 429),
        },
      },
      async (request, reply) => {
        const declared = declaredHash(request);
        if (!declared)
          throw new InvalidInput('INVALID_SHA256', {
            en: 'X-SHA-256 is required.',
            fr: 'L’en-tête X-SHA-256 est requis.',
          });
        const length = declaredLength(request, 'x-content-length');
        if (length === undefined)
          throw new InvalidInput('LENGTH_REQUIRED', {
            en: 'X-Content-Length is required.',
            fr: 'L’en-tête X-Content-Length est requis.',
          });
        // Checked, not spent: clients send the same token again with the PUT.
        const grant = await app.blossomGate.check(request, 'upload', declared);
        if (app.blossomGate.spent(grant, declared)) throw new Unauthenticated('AUTH_REPLAYED', TOKEN_SPENT);
        const user = await localUser(grant);
        if (!app.blobs.heldBy(user.hex, declared) && length > (await room(user)))
          throw new QuotaExceededError(app.drive.quotaBytes);
        return reply.status(200).send();
      },
    );
  });
}
