import { Type } from 'typebox';
import { NotFound } from '../errors.js';
import { pageLabels } from '../../pages/labels/index.js';
import { documentResponse, errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { pageContext, sendHtml, sharedViews } from '../http/views.js';
import { requireNpub } from '../identity/pubkey.js';
import type { PublicUrls } from '../http/public-urls.js';
import { DriveListing, DriveQuery } from './listing-schema.js';

const PageQuery = Type.Object({
  lang: Type.Optional(Type.String({ maxLength: 16, description: 'Page language: fr or en' })),
});

/**
 * The listing's links as this client reaches the station (a phone on the LAN: the host it came by), where the
 * published `manifest.json` keeps the station's own (PUBLIC_URL, else loopback: its root CID must not depend
 * on who asks).
 */
function forClient(listing: DriveListing, urls: PublicUrls): DriveListing {
  const root = listing.root_cid;
  return {
    ...listing,
    my_ipfs_gateway: urls.gateway,
    api_url: urls.api,
    explorer_url: root ? `${urls.gateway}/ipfs/${root}/_index.html` : null,
  };
}

/**
 * Reading a drive: `GET /api/drive` (public, like the published root it describes) and the `/drive` page,
 * which signs in in the browser and reads the signer's own drive through it.
 */
export async function driveListingRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();

  app.get(
    '/api/drive',
    {
      schema: {
        summary: 'A user’s drive: the public manifest of its published root, and that root',
        description:
          'Public, as the root it describes: files (path, name, category, type, size, SHA-256, CID, `ipfs_link`, date), the gateway and API the explorer uses, the current root CID and the explorer URL. No e-mail address.',
        tags: ['drive'],
        querystring: DriveQuery,
        response: { 200: DriveListing, ...errorResponses(400, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      const key = requireNpub(request.query.npub);
      const user = await app.users.findByHex(key.hex);
      if (!user)
        throw new NotFound('UNKNOWN_USER', {
          en: 'This key has no drive on this station.',
          fr: 'Cette clé n’a pas de uDRIVE sur cette station.',
        });
      // Changes with every upload: revalidate, never serve a stale list.
      reply.header('cache-control', 'no-cache');
      return forClient(await app.drive.listing(user), app.publicUrls(request));
    },
  );

  app.get(
    '/drive',
    {
      schema: {
        summary: 'Drive page: sign in with a NOSTR key, then list, preview, upload and delete files',
        tags: ['pages'],
        querystring: PageQuery,
        produces: ['text/html'],
        response: { 200: documentResponse('text/html', 'The page'), ...errorResponses(400, 429) },
      },
    },
    (request, reply) => {
      const context = pageContext(request);
      reply.header('cache-control', 'no-store');
      return sendHtml(reply, views.render('drive', { ...context, t: pageLabels(context.lang).drive }));
    },
  );
}
