#!/usr/bin/env node
import { ConfigError, loadConfig } from './config/config.js';
import { createLogger } from './logger.js';
import { startMemoryWatchdog } from './process/memory-watchdog.js';
import { startStation } from './station.js';

/** How long in-flight requests and streams get to finish on SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** Exit code after a stop for memory (sysexits' EX_TEMPFAIL: try again), so PM2's `autorestart` starts it again. */
const MEMORY_LIMIT_EXIT_CODE = 75;

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
  const stop = (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    watchdog?.stop();
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    station.close().then(
      () => process.exit(exitCode),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Heap and anonymous memory past MEMORY_LIMIT_MB: the same orderly stop, then a non-zero exit.
  const watchdog =
    config.memoryLimitBytes > 0
      ? startMemoryWatchdog({
          limitBytes: config.memoryLimitBytes,
          logger,
          onLimit: () => stop('MEMORY_LIMIT_MB', MEMORY_LIMIT_EXIT_CODE),
        })
      : null;
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // PM2's graceful reload sends this message instead of a signal on some platforms.
  process.on('message', (message) => message === 'shutdown' && stop('shutdown'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
