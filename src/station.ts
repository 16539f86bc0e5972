import type { Logger } from 'pino';
import { RelayClient, signerFromSecretKey } from '../streams/relay-client.js';
import { STATION_KINDS } from '../streams/kinds.js';
import { startStreams } from '../streams/index.js';
import { buildApp } from './app.js';
import { startDriveGateway } from './drive/plugin.js';
import { ensureRelay, relayStorePath, startSwarmOf } from './station-relay.js';
import type { Gateway } from './drive/store/gateway.js';
import { driveLinks } from './drive/links.js';
import { openDriveServices } from './drive/services.js';
import { PayeeResolver } from './economy/payments/payee.js';
import { createPayments } from './economy/payments/service.js';
import { StationView } from './view/station-view.js';
import { stationTempRoots, sweepTempFiles } from './fs/sweep.js';
import { createAuthServices } from './auth/services.js';
import { systemClock, unixSeconds, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import { UserStore } from './identity/user-store.js';
import { loadStationKey, stationKeyPath } from './identity/station-key.js';
import { registerVerifiedSource } from './nostr/verify.js';
import { RelayCheckpoint } from './state/relay-checkpoint.js';
import { openStationDb } from './state/station-db.js';
import { createMailer } from './mail/mailer.js';
import { createScraper } from './cookies/scraper/service.js';
import { openEventSignatures } from './relay/store/signatures.js';
import { checkListenHost, ensureWritableDirectory } from './process/preflight.js';
import { failedAt, listenFailureAsStartupError } from './process/startup-errors.js';
import type { RelayThread } from './relay/thread/relay-thread.js';

/** Seconds of events fetched again on every resubscription, for events that arrived out of order. */
const RESUME_OVERLAP_SECONDS = 60;
/**
 * On a stop, requests still running (a slow upload) get this long before their connections are cut, which
 * removes what they staged: well within main.ts's 10 s, and PM2's kill_timeout (ecosystem.config.cjs).
 */
const IN_FLIGHT_GRACE_MS = 5_000;

export interface Station {
  /** The app with its type provider, as buildApp made it. */
  app: Awaited<ReturnType<typeof buildApp>>;
  /** Base URL the HTTP API listens on. */
  url: string;
  relayUrl: string;
  embeddedRelay: RelayThread | null;
  close(): Promise<void>;
}

/** Starts the whole service: relay (or embedded relay), user store, relay client and streams, HTTP API. */
export async function startStation(
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<Station> {
  // A HOST, DATA_ROOT or TMP_DIR that cannot work stops start-up here, named, before anything is opened.
  await checkListenHost(config.host);
  await ensureWritableDirectory(config.dataRoot, 'DATA_ROOT');
  await ensureWritableDirectory(config.tmpDir, 'TMP_DIR');
  const stationKey = await loadStationKey(config.dataRoot).catch(failedAt(stationKeyPath(config.dataRoot)));
  const stationDb = await openStationDb(config.dataRoot);
  // The relay thread loads and opens its store on the other core while this one opens the rest.
  const relayStarting = ensureRelay(config, logger, stationKey);
  relayStarting.catch(() => undefined); // awaited below: its failure stops the start there
  const users = await UserStore.open(config.dataRoot, { uplanetName: config.uplanetName, logger });
  const auth = await createAuthServices({ config, clock, stationDb, logger });
  // The API's port is known once it listens (PORT=0 picks one): published drives name it (drive/links.ts).
  const listening: { port?: number; gateway?: Gateway | null } = {};
  const drive = await openDriveServices(config, {
    users,
    clock,
    logger,
    links: () => driveLinks(config, listening.port),
    retireBlobIndex: () => stationDb.retireBlobIndex(),
  });
  const embeddedRelay = await relayStarting;
  const relayUrl = embeddedRelay?.url ?? config.relayUrl;
  // Events the embedded relay stored were verified when written: the bot does not check them again.
  const signatures = embeddedRelay ? openEventSignatures(relayStorePath(config)) : null;
  const unregisterSource = signatures
    ? registerVerifiedSource((id) => signatures.signatureOf(id))
    : () => undefined;
  const resumeKey = `resume:${config.relayUrl}`;
  // First connection: from the saved resume point (at most AUTH_MAX_AGE back: a day of likes to pay);
  // afterwards the client resumes from the newest event it saw, minus an overlap (duplicates dropped by id).
  const firstSince = Math.max(
    (RelayCheckpoint.load(stationDb.meta, resumeKey) ?? 0) - RESUME_OVERLAP_SECONDS,
    unixSeconds(clock) - config.authMaxAgeSeconds,
  );
  const client = new RelayClient({
    urls: [relayUrl, ...config.relay.extraUrls],
    filters: (since) => [{ kinds: [...STATION_KINDS], since: since ?? firstSince }],
    signer: signerFromSecretKey(stationKey.secretKey),
    clock,
    maxFutureSeconds: config.relay.maxFutureSeconds,
    overlapSeconds: RESUME_OVERLAP_SECONDS,
    logger,
  });
  const checkpoint = new RelayCheckpoint(stationDb.meta, resumeKey, () => client.lastSeen, logger);
  const mailer = createMailer(config, { clock, logger });
  const scraper = createScraper({ config, clock, mailer, logger });
  // The station's view of the relay (profiles, follows, videos, playlists, geo notes) and the like payments.
  const view = new StationView();
  const payees = new PayeeResolver({ users, profiles: view, relay: client, logger });
  const payments = await createPayments({ config, clock, users, payees, logger });
  const streams = startStreams({
    view,
    users,
    payments,
    errors: view.errors,
    client,
    auth,
    logger,
    scraper: { at: config.scraperAt, clock, logger, scan: (signal) => scraper.scan({}, signal) },
  });
  auth.start();
  payments.start();
  const swarm = startSwarmOf(config, embeddedRelay, stationKey, clock, logger);
  const app = await buildApp({
    config,
    clock,
    logger,
    users,
    auth,
    relay: client,
    view,
    relayStore: embeddedRelay
      ? () => {
          const { store, restarts, ...thread } = embeddedRelay.health();
          return { ...store, ...thread, thread_restarts: restarts };
        }
      : undefined,
    drive,
    gatewayUrl: () => listening.gateway?.url ?? null,
    swarm: () => swarm.health(),
  });
  const url = await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    const address = { host: config.host, port: config.port };
    const remedy = 'stop that program, or set PORT to a free port';
    throw listenFailureAsStartupError(error, { port: 'PORT', host: 'HOST' }, address, remedy) ?? error;
  });
  listening.port = Number(new URL(url).port) || undefined;
  // Interrupted changes finished, drives of earlier versions imported, the store's collector started.
  drive.start(() => users.list());
  // The bot's back-fill (up to a day of events) starts once the API answers, not before it.
  client.start();
  checkpoint.start();
  logger.info({ url, relay: relayUrl }, 'station service listening');
  // Embedded content store only (IPFS_API unset): its read-only gateway on IPFS_GATEWAY's port.
  const gateway = (listening.gateway = await startDriveGateway(config, drive.store, logger));
  // Temp files of atomic writes a crash left behind, in the background (mtimes: the wall clock, not `clock`).
  const sweeping = new AbortController();
  void sweepTempFiles(stationTempRoots(config.dataRoot, config.tmpDir), { logger, signal: sweeping.signal });

  return {
    app,
    url,
    relayUrl,
    embeddedRelay,
    close: async () => {
      sweeping.abort();
      await swarm.close();
      await gateway?.close();
      const cut = setTimeout(() => app.server.closeAllConnections(), IN_FLIGHT_GRACE_MS);
      await app.close().finally(() => clearTimeout(cut));
      await drive.close();
      streams.unsubscribe();
      // Waits for the transfers already running, so their outcome is journaled.
      await payments.stop();
      auth.stop();
      checkpoint.stop();
      await client.stop();
      users.close();
      mailer.close();
      unregisterSource();
      await signatures?.close();
      await embeddedRelay?.close();
      await stationDb.close();
    },
  };
}
