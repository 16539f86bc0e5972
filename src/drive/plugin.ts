import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { LockLease } from '../fs/file-lock.js';
import type { Config } from '../config/config.js';
import type { StationApp } from '../http/station-app.js';
import type { UserLookup } from '../identity/user-store.js';
import type { CookieHandoff } from './cookie-handoff.js';
import { MediaService } from './media/service.js';
import { explorerPolicy, loadExplorer } from './explorer.js';
import { apiSources, driveLinks, type DriveLinks } from './links.js';
import { EXPLORER_NAME } from './listing-schema.js';
import { driveListingRoutes } from './listing-routes.js';
import { driveRoutes } from './routes.js';
import { DriveService } from './service.js';
import { STATION_LEASE } from './lock.js';
import { BlobIndex } from './blobs/blob-index.js';
import { blobIndexObserver, type DriveObserver } from './blobs/index-sync.js';
import { registerBlossom } from './blossom/plugin.js';
import { EmbeddedStore } from './store/embedded.js';
import { startGateway, type Gateway } from './store/gateway.js';
import { KuboStore } from './store/kubo.js';
import type { ContentStore } from './store/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    contentStore: ContentStore;
    drive: DriveService;
    /** The media fields of `/api/fileupload` (ffprobe / ffmpeg). */
    media: MediaService;
  }
}

/** A staged file untouched this long at start-up belongs to no upload in progress. */
const STAGING_LEFTOVER_MS = 3_600_000;

/** Kubo when `IPFS_API` is set, else the embedded store under `DATA_ROOT/ipfs-store`. */
export async function openContentStore(
  config: Config,
  logger?: Pick<Logger, 'warn' | 'info'>,
): Promise<ContentStore> {
  if (config.ipfsApi) return new KuboStore(config.ipfsApi, { logger });
  return EmbeddedStore.open(join(config.dataRoot, 'ipfs-store'));
}

export function createDriveService(
  config: Config,
  deps: {
    store: ContentStore;
    users: Pick<UserLookup, 'dirFor'>;
    clock: FastifyInstance['clock'];
    logger: Logger;
    /** Default: PUBLIC_URL, else PORT on loopback (links.ts). */
    links?: () => DriveLinks;
    /** The blob index, told of every change (blobs/index-sync.ts). */
    observer?: DriveObserver;
    /** The station keeps the drives it writes locked between changes (lock.ts); the CLI does not. */
    lockLease?: LockLease;
  },
): DriveService {
  return new DriveService({
    ...deps,
    links: deps.links ?? (() => driveLinks(config)),
    quotaBytes: config.driveQuotaBytes,
    stagingDir: join(config.dataRoot, '.drive-staging'),
  });
}

/**
 * Decorates the app with the content store and the drive, and adds the drive routes. A store opened here
 * is closed with the app. `@fastify/multipart` must already be registered (app.ts, once).
 */
export async function registerDrive(
  app: StationApp,
  options: {
    store?: ContentStore;
    users: Pick<UserLookup, 'dirFor'>;
    logger: Logger;
    cookies: CookieHandoff;
  },
): Promise<void> {
  const store = options.store ?? (await openContentStore(app.config, options.logger));
  app.decorate('contentStore', store);
  // Fails here, at start, rather than at the first upload, when the explorer was not built.
  await loadExplorer();
  const index = new BlobIndex(app.auth.db);
  // Asked several times per upload: worked out once the port is known (asking the socket is a system call).
  let known: DriveLinks | undefined;
  const links = () => {
    if (known) return known;
    const port = listeningPort(app);
    const current = driveLinks(app.config, port);
    if (port !== undefined) known = current;
    return current;
  };
  const drive = createDriveService(app.config, {
    store,
    users: options.users,
    clock: app.clock,
    logger: options.logger,
    links,
    observer: blobIndexObserver(index),
    lockLease: STATION_LEASE,
  });
  // Leftovers of a process that stopped mid-upload (cookie intake stages here too): private, but useless.
  await drive.staging.sweep(STAGING_LEFTOVER_MS);
  app.decorate('drive', drive);
  // Uploads still running (their client may be gone) end before the store they write to closes.
  app.addHook('onClose', async () => {
    await drive.drain();
    if (!options.store) await store.close();
  });
  const media = new MediaService({
    config: app.config.media,
    store,
    stagingDir: drive.staging.dir,
    logger: options.logger,
    withDrive: (user, critical) => drive.withDrive(user, critical),
  });
  app.addHook('onClose', async () => media.close());
  app.decorate('media', media);
  await app.register(driveRoutes, { cookies: options.cookies });
  await app.register(driveListingRoutes);
  await registerBlossom(app, { index, links });
}

/** The port the API actually listens on (PORT=0 in tests picks one), or undefined before `listen`. */
function listeningPort(app: StationApp): number | undefined {
  const address = app.server.address();
  return address && typeof address === 'object' ? address.port : undefined;
}

/**
 * The embedded store's read-only gateway on `IPFS_GATEWAY`'s port (Kubo serves its own). Listens on the
 * gateway URL's host when it is a loopback name, else on `HOST`; null (and a log line) when it cannot.
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
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = ['localhost', '127.0.0.1', '::1'].includes(hostname);
  const host = loopback ? hostname : config.host;
  const explorer = await loadExplorer();
  const route = {
    cid: explorer.cid,
    name: EXPLORER_NAME,
    policy: (req: { headers: { host?: string } }) =>
      explorerPolicy(explorer, apiSources(apiUrl, req.headers.host)),
  };
  try {
    const port = Number(url.port || 80);
    const gateway = await startGateway(store, { host, port, logger, explorer: route });
    logger.info({ url: gateway.url }, 'embedded IPFS gateway listening');
    return gateway;
  } catch (error) {
    logger.warn({ err: error, gateway: config.ipfsGateway }, 'embedded IPFS gateway could not start');
    return null;
  }
}
