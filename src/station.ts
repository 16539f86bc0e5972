import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { RelayClient } from '../streams/relay-client.js';
import { STATION_KINDS } from '../streams/kinds.js';
import { startStreams } from '../streams/index.js';
import { buildApp } from './app.js';
import { startDriveGateway } from './drive/plugin.js';
import { PayeeResolver } from './economy/payments/payee.js';
import { createPayments } from './economy/payments/service.js';
import { StationView } from './view/station-view.js';
import { createAuthServices } from './auth/services.js';
import { systemClock, unixSeconds, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import { UserStore } from './identity/user-store.js';
import { createMailer } from './mail/mailer.js';
import { createScraper } from './cookies/scraper/service.js';
import { startEmbeddedRelay, type EmbeddedRelay } from './relay/embedded-relay.js';
import { isLoopbackUrl, relayAnswers } from './relay/probe.js';

export interface Station {
  app: FastifyInstance;
  /** Base URL the HTTP API listens on. */
  url: string;
  relayUrl: string;
  embeddedRelay: EmbeddedRelay | null;
  close(): Promise<void>;
}

async function ensureRelay(config: Config, logger: Logger): Promise<EmbeddedRelay | null> {
  if (config.embeddedRelay === 'off') return null;
  if (config.embeddedRelay === 'auto') {
    if (!isLoopbackUrl(config.relayUrl) || (await relayAnswers(config.relayUrl))) return null;
  }
  const target = new URL(config.relayUrl);
  try {
    const relay = await startEmbeddedRelay({
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.port || 80),
      persistPath: join(config.dataRoot, 'relay', 'events.jsonl'),
      logger,
    });
    logger.info({ url: relay.url }, 'embedded relay started (nothing answered at RELAY_URL)');
    return relay;
  } catch (error) {
    // Another worker of a PM2 cluster won the race for the port: use its relay like any other.
    if (config.embeddedRelay === 'auto' && (error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      return null;
    throw error;
  }
}

/** Starts the whole service: relay (or embedded relay), user store, relay client and streams, HTTP API. */
export async function startStation(
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<Station> {
  await mkdir(config.dataRoot, { recursive: true, mode: 0o700 });
  await mkdir(config.tmpDir, { recursive: true, mode: 0o700 });
  const embeddedRelay = await ensureRelay(config, logger);
  const users = await UserStore.open(config.dataRoot, { uplanetName: config.uplanetName, logger });
  const relayUrl = embeddedRelay?.url ?? config.relayUrl;
  const client = new RelayClient({
    url: relayUrl,
    // First connection: the last AUTH_MAX_AGE seconds; afterwards: from the newest event seen, minus a minute
    // of overlap for events that arrived out of order (duplicates are dropped by id).
    filters: (lastSeen) => [
      {
        kinds: [...STATION_KINDS],
        since: lastSeen ? lastSeen - 60 : unixSeconds(clock) - config.authMaxAgeSeconds,
      },
    ],
    logger,
  });
  const auth = await createAuthServices({ config, clock, relay: client, logger });
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
  client.start();
  auth.start();
  payments.start();

  const app = await buildApp({ config, clock, logger, users, auth, relay: client, view });
  const url = await app.listen({ port: config.port, host: config.host });
  logger.info({ url, relay: relayUrl }, 'station service listening');
  // Embedded content store only (IPFS_API unset): its read-only gateway on IPFS_GATEWAY's port.
  const gateway = await startDriveGateway(config, app.contentStore, logger);

  return {
    app,
    url,
    relayUrl,
    embeddedRelay,
    close: async () => {
      await gateway?.close();
      await app.close();
      streams.unsubscribe();
      // Waits for the transfers already running, so their outcome is journaled.
      await payments.stop();
      auth.stop();
      await client.stop();
      users.close();
      mailer.close();
      await embeddedRelay?.close();
    },
  };
}
