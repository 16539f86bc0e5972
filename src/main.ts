#!/usr/bin/env node
import { ConfigError, loadConfig } from './config/config.js';
import { createLogger } from './logger.js';
import { startStation } from './station.js';

/** How long in-flight requests and streams get to finish on SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const station = await startStation(config, logger);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    station.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // PM2's graceful reload sends this message instead of a signal on some platforms.
  process.on('message', (message) => message === 'shutdown' && stop('shutdown'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
