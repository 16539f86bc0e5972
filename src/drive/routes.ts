import { localTimestamp } from '../clock.js';
import { receiveOwnedUpload, type UploadedFile } from '../http/upload-form.js';
import { answerLanguage, inAnswerLanguage } from '../http/request-language.js';
import { errorResponses } from '../http/schemas.js';
import type { Language } from '../i18n/localized.js';
import type { StationApp } from '../http/station-app.js';
import type { UserRecord } from '../identity/user-files.js';
import type { CookieHandoff } from './cookie-handoff.js';
import { fileUploadAnswer, uploadAnswer } from './answers.js';
import {
  CookieHandoffBody,
  CopyBody,
  CopyRequest,
  DeleteBody,
  DeleteRequest,
  UploadBody,
} from './schemas.js';
import { quotaLimit } from './quota.js';
import { fetchPublic } from './blossom/public-fetch.js';
import type { RemoteGateways } from './remote-copy.js';
import { driveAnnouncedLimit } from '../http/announced-length.js';
import { COOKIE_MAX_BYTES } from '../cookies/size-limit.js';

export interface DriveRoutesOptions {
  /** Cookie intake (src/cookies/): cookie-looking uploads go there, never to the drive. */
  cookies: CookieHandoff;
}

const TAGS = ['drive'];

/** Another station's gateway, reached as `PUT /mirror` reaches a site: same limits, same trusted origins. */
function remoteGateways(app: StationApp, signal: AbortSignal): RemoteGateways {
  const { mirrorMaxBytes, mirrorTimeoutMs, mirrorTrustedOrigins, mirrorPace } = app.config.blossom;
  return {
    own: [app.config.ipfsGateway],
    fetch: (url, maxBytes) =>
      fetchPublic(url, {
        maxBytes: Math.min(maxBytes, mirrorMaxBytes),
        timeoutMs: mirrorTimeoutMs,
        trustedOrigins: mirrorTrustedOrigins,
        pace: mirrorPace,
        signal,
      }),
  };
}

/** Puts an authenticated, staged, non-cookie upload in the owner's drive; `/api/fileupload` reuses it. */
export async function uploadToDrive(app: StationApp, user: UserRecord, file: UploadedFile, lang: Language) {
  const result = await app.drive.commit(user, file, { fileName: file.fileName, source: { kind: 'upload' } });
  return uploadAnswer(result, file.fileName, app.clock.now(), lang);
}

/** Longest `description` form field kept (the UPlanet pages send a sentence or two). */
const MAX_DESCRIPTION = 2000;

/**
 * `/api/fileupload` for a file that is not a cookie file: into the drive, then UPassport's media fields
 * (media/service.ts) before answering. A `description` form field, when sent, is the description.
 */
export async function uploadMediaToDrive(
  app: StationApp,
  user: UserRecord,
  file: UploadedFile,
  fields: Readonly<Record<string, string>>,
  lang: Language,
) {
  const result = await app.drive.commit(user, file, { fileName: file.fileName, source: { kind: 'upload' } });
  const given = fields.description?.trim().slice(0, MAX_DESCRIPTION) || undefined;
  const media = await app.media.describe(user, result, given);
  return fileUploadAnswer(result, media, file.fileName, app.clock.now(), lang);
}

/** The drive endpoints of docs/api-contract.md §7: upload, copy from a public drive, delete. Owner only. */
export async function driveRoutes(app: StationApp, options: DriveRoutesOptions): Promise<void> {
  const cookies = options.cookies;

  app.post(
    '/api/upload',
    {
      schema: {
        summary: 'Upload a file to the owner’s drive (multipart `file`, `npub`)',
        description:
          'Streamed to disk and to the content store; filed under Images, Music, Videos or Documents by extension; a taken name gets a number. A Netscape cookie file goes to cookie intake instead, never to the drive.',
        tags: TAGS,
        consumes: ['multipart/form-data'],
        response: {
          200: { anyOf: [UploadBody, CookieHandoffBody] },
          ...errorResponses(400, 401, 403, 413, 429, 502, 503, 504, 507),
        },
      },
    },
    async (request) => {
      const upload = await receiveOwnedUpload(request, {
        staging: app.drive.staging,
        limits: [quotaLimit(app.drive.quotaBytes)],
        gate: app.uploadLimits,
        announced: driveAnnouncedLimit(app, COOKIE_MAX_BYTES),
      });
      try {
        const { file, owner } = upload;
        const lang = answerLanguage(request);
        if (cookies.looksLikeCookies(file.head)) return await cookies.accept(owner.user, file, lang);
        return await uploadToDrive(app, owner.user, file, lang);
      } finally {
        await upload.finish();
      }
    },
  );

  app.post(
    '/api/upload_from_drive',
    {
      schema: {
        summary: 'Copy a file of a public drive into the owner’s drive',
        description:
          'The link is resolved in the content store; directories and files that do not fit in the quota are refused. The manifest records where the file came from.',
        tags: TAGS,
        body: CopyRequest,
        response: { 200: CopyBody, ...errorResponses(400, 401, 403, 404, 413, 429, 502, 503, 504, 507) },
      },
    },
    async (request, reply) => {
      const { user } = await request.requireOwner({ npub: request.body.npub ?? null });
      // A fetch from another station's gateway stops when the caller hangs up.
      const caller = new AbortController();
      const hangUp = () => {
        if (!reply.raw.writableFinished)
          caller.abort(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      };
      reply.raw.once('close', hangUp);
      const result = await app.drive
        .copyFrom(user, request.body.ipfs_link, remoteGateways(app, caller.signal))
        .finally(() => reply.raw.off('close', hangUp));
      return {
        success: true as const,
        message: inAnswerLanguage(request, {
          en: `Copied into your drive as ${result.entry.path}.`,
          fr: `Copié dans votre uDRIVE sous ${result.entry.path}.`,
        }),
        file_path: result.filePath,
        file_type: result.entry.file_type,
        new_cid: result.rootCid,
        file_cid: result.entry.cid,
        timestamp: localTimestamp(app.clock.now()),
        auth_verified: true as const,
      };
    },
  );

  app.post(
    '/api/delete',
    {
      schema: {
        summary: 'Delete a file of the owner’s drive',
        description:
          '`file_path` is relative to `APP/uDRIVE` (`Images/a.jpg`); a path leaving the drive is a 400.',
        tags: TAGS,
        body: DeleteRequest,
        response: { 200: DeleteBody, ...errorResponses(400, 401, 403, 404, 429, 502, 503, 504) },
      },
    },
    async (request) => {
      // Deleting needs proof in the request: a relay-observed login alone never destroys anything.
      const { user } = await request.requireOwner({ npub: request.body.npub ?? null, requireProof: true });
      const { entry, rootCid } = await app.drive.delete(user, request.body.file_path);
      return {
        success: true as const,
        message: inAnswerLanguage(request, {
          en: `${entry.path} deleted from your drive.`,
          fr: `${entry.path} supprimé de votre uDRIVE.`,
        }),
        deleted_file: entry.path,
        new_cid: rootCid,
        timestamp: localTimestamp(app.clock.now()),
        auth_verified: true as const,
      };
    },
  );
}
