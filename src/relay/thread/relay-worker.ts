/**
 * Entry of the relay thread (relay-thread.ts): the embedded relay with its own event loop, its own LMDB handle
 * and its own heap, so that what strangers send it (parsing, signature checks, queries, fan-out) never waits
 * in the HTTP API's queue. Log lines go to the station, which writes them with its own logger.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { REDACTED_PATHS } from '../../logger.js';
import { useSignatureThreads } from '../../nostr/schnorr-thread.js';
import { startEmbeddedRelay } from '../embedded-relay.js';
import type { FromRelayThread, RelayThreadSettings, ToRelayThread } from './messages.js';

const HEALTH_EVERY_MS = 1_000;
const port = parentPort!;
const settings = workerData as RelayThreadSettings;
const post = (message: FromRelayThread) => port.postMessage(message);
const logger = pino(
  { level: settings.logLevel, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
  { write: (line: string) => post({ type: 'log', line }) },
);

useSignatureThreads(settings.signatureThreads ?? 1);
try {
  const relay = await startEmbeddedRelay({ ...settings, logger });
  const report = () => post({ type: 'health', health: relay.health() });
  report();
  const reporting = setInterval(report, HEALTH_EVERY_MS);
  port.on('message', (message: ToRelayThread) => {
    if (message.type !== 'close') return;
    clearInterval(reporting);
    void relay
      .close()
      .catch((error: unknown) => logger.error({ err: error }, 'embedded relay: close failed'))
      .finally(() => {
        post({ type: 'closed' });
        port.close();
      });
  });
  post({ type: 'listening', url: relay.url, port: relay.port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error), code });
  port.close();
}
