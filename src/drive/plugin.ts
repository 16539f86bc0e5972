import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { StationApp } from '../http/station-app.js';
import type { CookieHandoff } from './cookie-handoff.js';
import type { MediaService } from './media/service.js';
import { explorerPolicy, loadExplorer } from './explorer.js';
import { apiSources, driveLinks } from './links.js';
import { EXPLORER_NAME } from './published-names.js';
import { driveListingRoutes } from './listing-routes.js';
import { driveRoutes } from './routes.js';
import type { DriveService } from './service.js';
import type { DriveServices } from './services.js';
import { registerBlossom } from './blossom/plugin.js';
import { startGateway, type Gateway } from './store/gateway.js';
import { listenFailureAsStartupError } from '../process/startup-errors.js';
import type { ContentStore } from './store/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    contentStore: ContentStore;
    drive: DriveService;
    /** The media fields of `/api/fileupload` (ffprobe / ffmpeg). */
    media: MediaService;
    /** The drive's index and stores (services.ts), for what the routes above do not cover (/health). */
    driveServices: DriveServices;
  }
}

/**
 * The drive's routes, on the services station.ts built (`DriveServices`, decorated by buildApp):
 * `@fastify/multipart` must already be registered (app.ts, once).
 */
export async function registerDrive(app: StationApp, options: { cookies: CookieHandoff }): Promise<void> {
  // Fails here, at start, rather than at the first upload, when the explorer was not built.
  await loadExplorer();
  await app.register(driveRoutes, { cookies: options.cookies });
  await app.register(driveListingRoutes);
  await registerBlossom(app);
}

/**
 * The embedded store's read-only gateway on `IPFS_GATEWAY`'s port (Kubo serves its own). Listens on `HOST`,
 * or on the loopback host an explicit IPFS_GATEWAY names (src/config/listen.ts); null when there is none to
 * start (Kubo, an https IPFS_GATEWAY); a StartupError when it cannot listen.
 */
export async function startDriveGateway(
  config: Config,
  store: ContentStore,
  logger: Logger,
  /** The API the explorer calls (its CSP connect-src); default: the one published drives name. */
  apiUrl: string = driveLinks(config).api,
): Promise<Gateway | null> {
  if (store.kind !== 'embedded') return null;
  const url = new URL(config.ipfsGateway);
  if (url.protocol !== 'http:') {
    logger.info({ gateway: config.ipfsGateway }, 'IPFS_GATEWAY is not plain http: no local gateway started');
    return null;
  }
  const host = config.listen.gateway;
  const explorer = await loadExplorer();
  const route = {
    cid: explorer.cid,
    name: EXPLORER_NAME,
    policy: (req: { headers: { host?: string } }) =>
      explorerPolicy(explorer, apiSources(apiUrl, req.headers.host)),
  };
  const port = Number(url.port || 80);
  try {
    const gateway = await startGateway(store, { host, port, logger, explorer: route });
    logger.info({ url: gateway.url }, 'embedded IPFS gateway listening');
    return gateway;
  } catch (error) {
    // Without it every explorer_url would open another program: start-up stops, naming IPFS_GATEWAY
    // (docs/decisions.md, "A gateway that cannot listen stops start-up").
    const names = { port: 'IPFS_GATEWAY', host: host === config.host ? 'HOST' : 'IPFS_GATEWAY' };
    const remedy =
      'stop that program, or set IPFS_GATEWAY to a free port (or IPFS_API to the Kubo node behind it)';
    throw listenFailureAsStartupError(error, names, { host, port }, remedy) ?? error;
  }
}
