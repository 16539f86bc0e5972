import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { AuthContext } from '../auth/types.js';
import { InvalidInput } from '../errors.js';
import type { StagingArea } from '../fs/staging.js';
import { pageLabels } from '../../pages/labels/index.js';
import { answerLanguage } from '../http/request-language.js';
import { documentResponse, errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { receiveOwnedUpload, type UploadedFile, type UploadForm } from '../http/upload-form.js';
import { pageContext, sendHtml, sharedViews } from '../http/views.js';
import type { UserRecord } from '../identity/user-files.js';
import { looksLikeNetscapeCookies } from './netscape.js';
import {
  CookieDeletedBody,
  CookieListBody,
  CookieListQuery,
  CookieUploadBody,
  DomainParams,
  DriveUploadBody,
} from './schemas.js';
import { COOKIE_MAX_BYTES, cookieSizeLimit } from './size-limit.js';
import { driveAnnouncedLimit } from '../http/announced-length.js';
import { parseDomainParam, type CookieVault } from './vault.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The owners' cookie files; the drive's `POST /api/upload` hands cookie-looking files to `accept`. */
    cookies: CookieVault;
  }
}

/** Puts a file that is not a cookie file into the drive, as `POST /api/upload` would, and returns its answer. */
export type NonCookieUpload = (
  request: FastifyRequest,
  upload: UploadForm & { file: UploadedFile },
  owner: { auth: AuthContext; user: UserRecord },
) => Promise<Static<typeof DriveUploadBody>>;

export interface CookieRoutesOptions {
  /**
   * Where uploads are received: the drive's staging area (`DATA_ROOT/.drive-staging/`, mode 700, files 600),
   * shared so that a non-cookie file posted here moves into the drive by a rename.
   */
  staging: StagingArea;
  /** Where a file that is not a cookie file goes: the drive, as `POST /api/upload` (station scripts rely on it). */
  nonCookie: NonCookieUpload;
}

const TAGS = ['cookies'];

const notACookieFile = () =>
  new InvalidInput('NOT_A_COOKIE_FILE', {
    en: 'This is not a Netscape cookie file (cookies.txt: lines of 7 TAB-separated fields); nothing was stored. Other files go to the drive (/drive).',
    fr: 'Ce n’est pas un fichier de cookies au format Netscape (cookies.txt : des lignes de 7 champs séparés par des tabulations) ; rien n’a été enregistré. Les autres fichiers vont dans le uDRIVE (/drive).',
  });

/** JSON when the client asks for it; browsers (`text/html, …, *\/*`) get the page. */
function wantsJson(request: FastifyRequest): boolean {
  return /\bapplication\/json\b/i.test(request.headers.accept ?? '');
}

/** Cookie intake (docs/api-contract.md §8), the owner's cookie vault and the cookie page. */
export async function cookieRoutes(app: StationApp, options: CookieRoutesOptions): Promise<void> {
  const views = await sharedViews();
  const { staging } = options;

  app.post(
    '/api/fileupload',
    {
      schema: {
        summary: 'Upload a Netscape cookie file (multipart `file`, `npub`); other files go to the drive',
        description:
          'One registrable domain is stored as `.<domain>.cookie` (mode 600) at the root of the user directory, replacing the previous one; several domains are refused (400), none gives `.cookie.txt`. Cookies are never published nor put in the drive. With a `cookie_only` field (any value), a file that is not a cookie file is refused (400 `NOT_A_COOKIE_FILE`) instead of going to the drive.',
        tags: TAGS,
        consumes: ['multipart/form-data'],
        response: {
          200: { anyOf: [CookieUploadBody, DriveUploadBody] },
          ...errorResponses(400, 401, 403, 413, 429, 503, 507),
        },
      },
    },
    async (request) => {
      const upload = await receiveOwnedUpload(request, {
        staging,
        limits: [cookieSizeLimit],
        gate: app.uploadLimits,
        // Files that are not cookie files go to the drive: its quota and room bound them.
        announced: driveAnnouncedLimit(app, COOKIE_MAX_BYTES),
      });
      try {
        const { file, fields, owner } = upload;
        if (looksLikeNetscapeCookies(file.head))
          return await app.cookies.accept(owner.user, file, staging, answerLanguage(request));
        // The cookie page sends this: a file picked there by mistake (a photo) must not be published.
        if (fields.cookie_only !== undefined) throw notACookieFile();
        return await options.nonCookie(request, { file, fields }, owner);
      } finally {
        await upload.finish();
      }
    },
  );

  app.get(
    '/cookie',
    {
      schema: {
        summary:
          'The cookie page; with `Accept: application/json`, the caller’s cookie files (proof required)',
        tags: TAGS,
        querystring: CookieListQuery,
        produces: ['text/html', 'application/json'],
        response: { 200: CookieListBody, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      reply.header('vary', 'Accept');
      if (!wantsJson(request)) return page(request, reply);
      const { user } = await request.requireOwner({ npub: request.query.npub ?? null, requireProof: true });
      const cookies = await app.cookies.list(user);
      return { cookies, count: cookies.length };
    },
  );

  app.get(
    '/cookie/:domain',
    {
      schema: {
        summary: 'The caller’s own cookie file for a domain (or its nearest parent domain), as text/plain',
        tags: TAGS,
        params: DomainParams,
        produces: ['text/plain'],
        response: {
          200: documentResponse('text/plain', "The owner's cookie file, as uploaded"),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const domain = parseDomainParam(request.params.domain);
      const { user } = await request.requireOwner({ requireProof: true });
      const opened = await app.cookies.open(user, domain);
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-length', opened.size)
        .header('x-cookie-domain', opened.domain ?? '')
        .send(opened.handle.createReadStream());
    },
  );

  app.delete(
    '/cookie/:domain',
    {
      schema: {
        summary: 'Delete the caller’s cookie file for exactly this domain',
        tags: TAGS,
        params: DomainParams,
        response: { 200: CookieDeletedBody, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const domain = parseDomainParam(request.params.domain);
      const { user } = await request.requireOwner({ requireProof: true });
      await app.cookies.remove(user, domain);
      return { success: true as const, domain };
    },
  );

  function page(request: FastifyRequest, reply: FastifyReply) {
    const context = pageContext(request);
    reply.header('cache-control', 'no-store');
    return sendHtml(reply, views.render('cookie', { ...context, t: pageLabels(context.lang).cookie }));
  }
}
