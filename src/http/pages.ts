import { Type } from 'typebox';
import { pageLabels } from '../../pages/labels/index.js';
import { documentResponse, errorResponses } from './schemas.js';
import type { StationApp } from './station-app.js';
import type { PublicUrls } from './public-urls.js';
import { pageContext, sendHtml, sharedViews, type Language } from './views.js';

const PageQuery = Type.Object({
  lang: Type.Optional(Type.String({ maxLength: 16, description: 'Page language: fr or en' })),
  lat: Type.Optional(Type.String({ maxLength: 32, description: 'Position to start from (geo pages)' })),
  lon: Type.Optional(Type.String({ maxLength: 32, description: 'Position to start from (geo pages)' })),
});

interface PageSpec {
  path: string;
  view: string;
  summary: string;
  /** `urls`: the relay and gateway as this client reaches them (public-urls.ts). */
  data: (lang: Language, urls: PublicUrls) => object;
}

const PAGES: PageSpec[] = [
  {
    path: '/scan',
    view: 'scan',
    summary:
      'Scan page: e-mail registration with a zero balance, multi-scan of QR codes (camera or pictures)',
    data: (lang) => ({ t: pageLabels(lang).scan }),
  },
  {
    path: '/g1',
    view: 'g1',
    summary: 'Registration page: identity with optional Ğ1 salt/pepper and a position (UMAP cell)',
    data: (lang) => ({ t: pageLabels(lang).g1 }),
  },
  {
    path: '/nostr',
    view: 'nostr',
    summary:
      'Geo-message page: sign a note with the position tags, publish it to the relay, read nearby notes',
    // The station relay at the host this page was loaded from (or PUBLIC_URL's), never a loopback address.
    data: (lang, urls) => ({ t: pageLabels(lang).nostr, relayUrl: urls.relay }),
  },
  {
    path: '/webcam',
    view: 'webcam',
    summary: 'Webcam page: record a video in the browser and upload it to the uDRIVE (POST /api/fileupload)',
    // Links to the upload are shown on the station's gateway, as this client reaches it.
    data: (lang, urls) => ({ t: pageLabels(lang).webcam, gateway: urls.gateway }),
  },
];

/**
 * The interactive pages (docs/api-contract.md §7): server-rendered shells whose browser modules
 * (`/assets/<page>.js`, bundled: no CDN) do the work against the JSON API. Texts go to the modules in a data
 * attribute, so the strict Content-Security-Policy (`script-src 'self'`, no inline script) holds.
 */
export async function pageRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();
  for (const spec of PAGES) {
    app.get(
      spec.path,
      {
        schema: {
          summary: spec.summary,
          tags: ['pages'],
          querystring: PageQuery,
          produces: ['text/html'],
          response: { 200: documentResponse('text/html', 'The page'), ...errorResponses(400, 429) },
        },
      },
      (request, reply) => {
        const context = pageContext(request);
        // Pages that show freshly created keys must not be kept by caches.
        reply.header('cache-control', 'no-store');
        const data = spec.data(context.lang, app.publicUrls(request));
        return sendHtml(reply, views.render(spec.view, { ...context, ...data }));
      },
    );
  }
}
