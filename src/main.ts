#!/usr/bin/env node
import type { Logger } from 'pino';
import { ConfigError, loadConfig, PROJECT_ROOT, type Config } from './config/config.js';
import { createLogger } from './logger.js';
import { startMemoryWatchdog } from './process/memory-watchdog.js';
import { fileFailureAsStartupError, StartupError } from './process/startup-errors.js';
import { startStation } from './station.js';

/** How long in-flight requests and streams get to finish on SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** Exit code after a stop for memory (sysexits' EX_TEMPFAIL: try again), so PM2's `autorestart` starts it again. */
const MEMORY_LIMIT_EXIT_CODE = 75;
/** Exit code of a start-up a setting or the machine stopped (sysexits' EX_CONFIG): starting again changes nothing. */
const CONFIG_EXIT_CODE = 78;

/**
 * The one place start-up failures become an exit: a bad variable (ConfigError) or what a setting made
 * impossible (StartupError: a port taken, HOST, DATA_ROOT, a file) is one line on stderr, and a JSON log line
 * when the logger is up, then exit 78; anything else is a bug and keeps its stack (exit 1, below).
 */
function exitOnStartupFailure(error: unknown, config: Config | null, logger: Logger | null): void {
  const paths = config && { ...config, projectRoot: PROJECT_ROOT };
  const known =
    error instanceof ConfigError || error instanceof StartupError
      ? error
      : paths && fileFailureAsStartupError(error, paths);
  if (!known) return;
  const line = `${known instanceof ConfigError ? 'configuration error' : 'cannot start'}: ${known.message}`;
  const setting = known instanceof ConfigError ? known.variable : known.setting;
  logger?.fatal({ code: known.code, setting }, line);
  console.error(line);
  process.exit(CONFIG_EXIT_CODE);
}

async function main(): Promise<void> {
  let config: Config | null = null;
  let logger: Logger | null = null;
  let station;
  try {
    config = await loadConfig();
    logger = createLogger({ level: config.logLevel, format: config.logFormat });
    station = await startStation(config, logger);
  } catch (error) {
    exitOnStartupFailure(error, config, logger);
    throw error;
  }

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
  // The terminal it was started from closed: the same orderly stop, not Node's default instant death, which
  // left half-received uploads in DATA_ROOT/.drive-staging.
  process.once('SIGHUP', () => stop('SIGHUP'));
  // PM2's graceful reload sends this message instead of a signal on some platforms.
  process.on('message', (message) => message === 'shutdown' && stop('shutdown'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
