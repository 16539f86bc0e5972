import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { PROJECT_ROOT } from '../config/config.js';
import type { StationApp } from './station-app.js';

/** Where `scripts/build-pages.mjs` bundles `pages/src/<name>.ts` (nostr-tools included: stations may be offline). */
export const PAGE_BUNDLES_DIR = join(PROJECT_ROOT, 'dist', 'pages');

/** URL prefix of the page bundles: `pages/src/cookie.ts` is `/assets/cookie.js`. */
export const ASSETS_PREFIX = '/assets/';

/**
 * Serves the browser modules of the pages. Bundle names do not change between releases, so browsers
 * revalidate (ETag) instead of caching blindly; a missing file falls through to the JSON 404.
 */
export async function assetRoutes(app: StationApp): Promise<void> {
  await app.register(fastifyStatic, {
    root: PAGE_BUNDLES_DIR,
    prefix: ASSETS_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply) => void reply.header('cache-control', 'no-cache'),
    schemaHide: true,
  });
}
