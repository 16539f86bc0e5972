import { inAnswerLanguage } from '../../http/request-language.js';
import { errorResponses } from '../../http/schemas.js';
import type { StationApp } from '../../http/station-app.js';
import { receiveOwnedUpload } from '../../http/upload-form.js';
import { driveAnnouncedLimit } from '../../http/announced-length.js';
import { fileMetadataTags } from '../../nostr/nip94.js';
import { mediaTypeOf } from '../blobs/service.js';
import { wrapperOf } from '../media/wrap.js';
import type { MediaFields } from '../media/service.js';
import { quotaLimit } from '../quota.js';
import { BlobParams } from '../blossom/schemas.js';
import { BLOB_BYTES, blobHash, blobNotFound, blobServer } from '../blossom/serve-routes.js';
import { Nip96DeletedBody, Nip96Info, Nip96ListBody, Nip96ListQuery, Nip96UploadBody } from './schemas.js';

const TAGS = ['nip96'];
/** UPlanet's name for its NIP-96 endpoint (UPassport's upload2ipfs), kept so its pages work unchanged. */
export const NIP96_PATH = '/upload2ipfs';
const MAX_CAPTION = 2000;

const NO_MEDIA: MediaFields = {
  info: null,
  thumbnail_ipfs: null,
  gifanim_ipfs: null,
  dimensions: null,
  duration: null,
  description: null,
};

/** `no_transform=true` or `publish=false` keep an upload out of the relay (NIP-94 announcement). */
function wantsAnnouncement(fields: Readonly<Record<string, string>>): boolean {
  return (
    fields.no_transform?.trim().toLowerCase() !== 'true' && fields.publish?.trim().toLowerCase() !== 'false'
  );
}

/**
 * NIP-96 over the same drive as Blossom: discovery, upload (multipart `file`, NIP-98 required), download,
 * delete and list by SHA-256. Every file lands in the uploader's drive, once per SHA-256.
 */
export async function nip96Routes(app: StationApp): Promise<void> {
  app.get(
    '/.well-known/nostr/nip96.json',
    { schema: { summary: 'NIP-96 server information', tags: TAGS, response: { 200: Nip96Info } } },
    async (request, reply) => {
      const { api } = app.publicUrls(request);
      reply.header('cache-control', 'public, max-age=300');
      return {
        api_url: `${api}${NIP96_PATH}`,
        download_url: api,
        supported_nips: [94, 96, 98],
        content_types: ['*/*'],
        plans: {
          free: {
            name: 'UPlanet drive (registered users of this station)',
            is_nip98_required: true,
            max_byte_size: app.drive.quotaBytes,
            file_expiration: [0, 0],
            media_transformations: {},
          },
        },
        extensions: { ipfs: true, blossom: true },
      };
    },
  );

  app.post(
    NIP96_PATH,
    {
      schema: {
        summary: 'NIP-96 upload into your drive (multipart `file`, `caption`, `alt`, `no_transform`; NIP-98)',
        description:
          'NIP-98 is required (a `payload` tag may hash the file or the whole body). The same bytes twice are one file (200); a new file is 201 and, unless `no_transform=true` or `publish=false`, announced on the relay with a kind-1063 event signed by the uploader.',
        tags: TAGS,
        consumes: ['multipart/form-data'],
        response: { 200: Nip96UploadBody, 201: Nip96UploadBody, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    async (request, reply) => {
      const upload = await receiveOwnedUpload(request, {
        staging: app.drive.staging,
        limits: [quotaLimit(app.drive.quotaBytes)],
        gate: app.uploadLimits,
        requireProof: true,
        announced: driveAnnouncedLimit(app),
      });
      try {
        const { file, fields, owner } = upload;
        const type = mediaTypeOf(fields.content_type) ?? mediaTypeOf(file.mimeType);
        const kept = await app.blobs.keep(owner.user, file, {
          name: file.fileName,
          type,
          source: { kind: 'nip96' },
        });
        const caption = fields.caption?.trim().slice(0, MAX_CAPTION) ?? '';
        const media = kept.created
          ? await app.media.describe(owner.user, kept.result, caption || undefined)
          : NO_MEDIA;
        const alt = fields.alt?.trim().slice(0, MAX_CAPTION) || null;
        const links = app.publicUrls(request);
        const metadata = app.blobs.metadata(kept.blob, { dim: media.dimensions, alt }, links);
        if (kept.created && wantsAnnouncement(fields))
          void app.fileMetadata.publish(owner.user, metadata, caption);
        else if (kept.created) app.fileMetadata.decline();
        const { entry } = kept.result;
        return reply.status(kept.created ? 201 : 200).send({
          status: 'success' as const,
          message: inAnswerLanguage(
            request,
            kept.created
              ? {
                  en: `Saved in your drive as ${entry.path}.`,
                  fr: `Enregistré dans votre uDRIVE sous ${entry.path}.`,
                }
              : {
                  en: `Already in your drive as ${entry.path}.`,
                  fr: `Déjà dans votre uDRIVE sous ${entry.path}.`,
                },
          ),
          nip94_event: { tags: fileMetadataTags(metadata), content: caption },
          new_cid: wrapperOf(entry),
          file_hash: entry.sha256,
          file_type: entry.mime_type,
          size: entry.size,
          dimensions: media.dimensions,
          duration: media.duration,
          info: media.info,
          thumbnail_ipfs: media.thumbnail_ipfs,
          gifanim_ipfs: media.gifanim_ipfs,
          drive_cid: kept.result.rootCid,
        });
      } finally {
        await upload.finish();
      }
    },
  );

  const serve = blobServer(app);
  const download = { summary: 'NIP-96 download by SHA-256', tags: TAGS, params: BlobParams };
  const downloadResponses = { 200: BLOB_BYTES, 206: BLOB_BYTES, ...errorResponses(404, 416) };
  app.get(`${NIP96_PATH}/:blob`, { schema: { ...download, response: downloadResponses } }, serve);

  app.delete(
    `${NIP96_PATH}/:blob`,
    {
      schema: {
        summary: 'NIP-96 delete: take the file out of your drive (NIP-98); other users’ copies stay',
        tags: TAGS,
        params: BlobParams,
        response: { 200: Nip96DeletedBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const sha256 = blobHash(request.params.blob);
      if (!sha256) throw blobNotFound();
      const { user } = await request.requireOwner({ requireProof: true });
      await app.blobs.remove(user, sha256);
      const message = inAnswerLanguage(request, { en: 'File deleted.', fr: 'Fichier supprimé.' });
      return { status: 'success' as const, message };
    },
  );

  app.get(
    NIP96_PATH,
    {
      schema: {
        summary: 'NIP-96 list: your files, newest first (NIP-98)',
        tags: TAGS,
        querystring: Nip96ListQuery,
        response: { 200: Nip96ListBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { user } = await request.requireOwner({ requireProof: true });
      const page = Number(request.query.page ?? 0);
      const count = Math.min(Math.max(Number(request.query.count ?? 50), 1), 500);
      const owned = app.blobs.owned(user.hex);
      const links = app.publicUrls(request);
      const files = owned.slice(page * count, page * count + count).map((blob) => ({
        tags: fileMetadataTags(app.blobs.metadata(blob, {}, links)),
        content: '',
        created_at: blob.uploaded,
      }));
      return { count, total: owned.length, page, files };
    },
  );
}
