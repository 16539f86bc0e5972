import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { SisterHealth } from './swarm/swarm.js';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { registerOpenApi } from './http/openapi.js';
import { registerProtection } from './http/protection.js';
import { registerOverload } from './http/overload.js';
import { registerCors } from './http/cors.js';
import { UploadLimits } from './http/upload-gate.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { StationApp } from './http/station-app.js';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Clock } from './clock.js';
import { registerErrorHandling } from './http/error-handler.js';
import { RequestLog } from './http/request-log.js';
import { clientErrorHandler, frameworkErrors, registerUrlLimit } from './http/client-errors.js';
import { healthRoutes } from './http/health.js';
import type { UserStore } from './identity/user-store.js';
import { identityRoutes } from './identity/routes.js';
import { createLedger } from './economy/cached-ledger.js';
import type { Ledger } from './economy/ledger.js';
import { economyRoutes } from './economy/routes.js';
import { geoRoutes } from './geo/routes.js';
import { geolinksRoutes } from './geo/geolinks-routes.js';
import { myGpsRoutes } from './geo/my-gps-routes.js';
import { balancesRoutes } from './economy/batch-routes.js';
import { viewAssetRoutes } from './http/views.js';
import { answerLanguage } from './http/request-language.js';
import { registerAuth } from './auth/plugin.js';
import { authRoutes } from './auth/routes.js';
import type { AuthServices } from './auth/services.js';
import type { RelayLink } from './relay/link.js';
import type { StoreHealth } from './relay/store/event-store.js';

import { StationView } from './view/station-view.js';
import { viewRoutes } from './view/routes.js';
import { assetRoutes } from './http/assets.js';
import { pageRoutes } from './http/pages.js';
import { cookieRoutes } from './cookies/routes.js';
import { CookieVault } from './cookies/vault.js';
import { looksLikeNetscapeCookies } from './cookies/netscape.js';
import { registerDrive } from './drive/plugin.js';
import { uploadMediaToDrive } from './drive/routes.js';
import type { DriveServices } from './drive/services.js';
import { MetadataPublisher } from './drive/blobs/metadata-publisher.js';
import { BlossomGate } from './drive/blossom/auth.js';
import { OwnServers } from './drive/blossom/own-servers.js';
import { PublicAddresses, type PublicUrls } from './http/public-urls.js';

/** The embedded relay's store, and its thread's connections and queues when it runs one. */
export type RelayStoreHealth = StoreHealth & {
  connections?: number;
  queued_bytes?: number;
  answer_events_read?: number;
  thread_restarts?: number;
};

/** Everything the HTTP surface needs, built by `main.ts` (or by a test with temp dirs and loopback servers). */
export interface AppDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  users: UserStore;
  /** Ğ1 ledger; built from SQUID_URL / SQUID_FALLBACKS when absent. */
  ledger?: Ledger;
  auth: AuthServices;
  relay: RelayLink;
  /** The relay view fed by the event streams; an empty one when absent (no streams in this process). */
  view?: StationView;
  /** The drive: its index, content store and services (drive/services.ts), built once by station.ts. */
  drive: DriveServices;
  /** Health of the embedded relay's store, when the relay runs in this process. */
  relayStore?: () => RelayStoreHealth;
  /** Sister stations' sync (src/swarm/), for /health. */
  swarm?: () => SisterHealth[];
  /** The embedded gateway's URL once it listens (station.ts starts it after the API); else IPFS_GATEWAY. */
  gatewayUrl?: () => string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploadLimits: UploadLimits;
    config: Config;
    clock: Clock;
    users: UserStore;
    ledger: Ledger;
    auth: AuthServices;
    relay: RelayLink;
    view: StationView;
    relayStore: (() => RelayStoreHealth) | undefined;
    swarm: (() => SisterHealth[]) | undefined;
    /** The API, relay and gateway URLs to give the client of `request` (src/http/public-urls.ts). */
    publicUrls(request: { protocol: string; host: string }): PublicUrls;
  }
}

/** The composition root of the HTTP surface: services come in as decorators, routes stay thin. */
export async function buildApp(deps: AppDeps): Promise<StationApp> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    return503OnClosing: true,
    logController: new RequestLog(),
    forceCloseConnections: 'idle',
    // Room for every valid host name in /cookie/:domain; longer parameters are 414.
    routerOptions: { maxParamLength: 300 },
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', deps.config);
  app.decorate('clock', deps.clock);
  app.decorate('users', deps.users);
  app.decorate('ledger', deps.ledger ?? createLedger(deps.config, deps.clock, deps.logger));
  app.decorate('auth', deps.auth);
  app.decorate('relay', deps.relay);
  app.decorate('view', deps.view ?? new StationView());
  app.decorate('relayStore', deps.relayStore);
  app.decorate('swarm', deps.swarm);
  app.decorate('cookies', new CookieVault({ users: deps.users, clock: deps.clock, logger: deps.logger }));
  app.decorate('uploadLimits', UploadLimits.fromConfig(deps.config, deps.clock));
  app.decorate('driveServices', deps.drive);
  app.decorate('contentStore', deps.drive.store);
  app.decorate('drive', deps.drive.drive);
  app.decorate('media', deps.drive.media);
  app.decorate('blobs', deps.drive.blobs);
  const listening = () => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : deps.config.port;
  };
  const servers = new OwnServers(deps.config.auth.publicUrls, listening);
  const addresses = new PublicAddresses(deps.config, {
    relay: () => deps.relay.url,
    gateway: () => deps.gatewayUrl?.() ?? deps.config.ipfsGateway,
    apiPort: listening,
  });
  app.decorate('publicUrls', (request: { protocol: string; host: string }) => addresses.of(request));
  app.decorate('blossomGate', new BlossomGate({ replay: deps.auth.replay, servers, clock: deps.clock }));
  app.decorate(
    'fileMetadata',
    new MetadataPublisher({
      relay: deps.relay,
      dirFor: (email) => deps.users.dirFor(email),
      clock: deps.clock,
      logger: deps.logger,
      enabled: deps.config.blossom.publishFileMetadata,
    }),
  );
  const pruneUploads = setInterval(() => app.uploadLimits.prune(), 60_000).unref();
  app.addHook('onClose', async () => clearInterval(pruneUploads));

  registerErrorHandling(app);
  registerUrlLimit(app);
  await registerOverload(app, deps.config.overload);
  await registerProtection(app, deps.config);
  await registerCors(app);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // Multipart is registered here once, for every upload route (cookie intake and the drive): register it
  // nowhere else. One file per request; the drive quota bounds a file.
  await app.register(multipart, {
    limits: { fileSize: deps.config.driveQuotaBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
  });
  await registerOpenApi(app);
  registerAuth(app, deps.auth.authenticator, deps.users, deps.clock, deps.auth.origins);

  await app.register(healthRoutes);
  await app.register(identityRoutes);
  await app.register(viewAssetRoutes);
  await app.register(economyRoutes);
  await app.register(geoRoutes);
  await app.register(geolinksRoutes);
  await app.register(myGpsRoutes);
  await app.register(balancesRoutes);
  await app.register(authRoutes);
  await app.register(viewRoutes);
  await app.register(assetRoutes);
  await app.register(pageRoutes);
  await registerDrive(app, {
    // Cookie-looking files sent to /api/upload go to cookie intake, never to the drive.
    cookies: {
      looksLikeCookies: looksLikeNetscapeCookies,
      accept: (user, staged, lang) => app.cookies.accept(user, staged, app.drive.staging, lang),
    },
  });
  // Non-cookie files sent to /api/fileupload go to the drive, answered with UPassport's media fields.
  await app.register(cookieRoutes, {
    staging: app.drive.staging,
    nonCookie: (request, upload, owner) =>
      uploadMediaToDrive(app, owner.user, upload.file, upload.fields, answerLanguage(request)),
  });
  return app;
}
