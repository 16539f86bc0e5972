import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { forwardLogLine } from './log-lines.js';
import type { FromRelayThread, RelayThreadHealth, RelayThreadSettings, ToRelayThread } from './messages.js';

export interface RelayThreadOptions {
  logger: Logger;
  /** The thread's V8 heap limit: past it only the relay thread dies, and it is started again. */
  maxHeapMb: number;
  /** First wait before starting a dead thread again (doubled each time, at most 5 s). */
  restartDelayMs?: number;
}

/** The embedded relay as the station holds it: its address, its last reported health, a way to stop it. */
export interface RelayThread {
  readonly url: string;
  readonly port: number;
  /** The last health the thread reported; a thread that is down reports an unhealthy store. */
  health(): RelayThreadHealth & { restarts: number };
  /** Stops the thread as a crash would, for the supervisor to start it again (what the tests check). */
  terminateThread(): Promise<void>;
  close(): Promise<void>;
}

// Short: while the thread is down the station hears nothing, and its budgets make a crash loop unlikely.
const MAX_RESTART_DELAY_MS = 5_000;
/** A thread that ran this long before dying starts again after the first delay, not a longer one. */
const STABLE_AFTER_MS = 60_000;

/** A failed start of the relay thread, with the listening error's code (EADDRINUSE: another relay is there). */
export class RelayThreadStartError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'RelayThreadStartError';
  }
}

// Run from the TypeScript sources (development, tests), the thread registers tsx's loader itself: Node 20
// does not pass the parent's `--import tsx` hooks on to a worker.
const source = import.meta.url.endsWith('.ts');
const entry = new URL(source ? './relay-worker.ts' : './relay-worker.js', import.meta.url);
const BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;

function spawn(settings: RelayThreadSettings, maxHeapMb: number): Worker {
  const options = { workerData: settings, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } };
  return source ? new Worker(BOOTSTRAP, { ...options, eval: true }) : new Worker(entry, options);
}

/** Waits for a new thread to listen; rejects with RelayThreadStartError when it cannot. */
function started(worker: Worker): Promise<{ url: string; port: number }> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromRelayThread) => {
      if (message.type === 'listening') done(() => resolve(message));
      if (message.type === 'failed')
        done(() => reject(new RelayThreadStartError(message.message, message.code)));
    };
    const onExit = (code: number) =>
      done(() => reject(new RelayThreadStartError(`relay thread exited with code ${code}`, undefined)));
    // An error the thread did not catch (ws re-throws its server's listen error): a failed start too, not an
    // unhandled 'error' event that would end the whole process with a stack trace.
    const onError = (error: Error) =>
      done(() => reject(new RelayThreadStartError(error.message, (error as NodeJS.ErrnoException).code)));
    const done = (settle: () => void) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', onError);
      settle();
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.on('error', onError);
  });
}

/**
 * Runs the embedded relay on a worker thread and keeps it running: a thread that dies (its heap limit, an
 * uncaught error) is logged and started again on the same port, while the station's HTTP surface goes on.
 * Why a thread and not a process: docs/decisions.md, "The relay on a thread of its own".
 */
export async function startRelayThread(
  settings: RelayThreadSettings,
  options: RelayThreadOptions,
): Promise<RelayThread> {
  const { logger } = options;
  let health: RelayThreadHealth = {
    store: { ok: true, events: 0, error: null },
    connections: 0,
    queued_bytes: 0,
    answer_events_read: 0,
  };
  // Its log lines and health from the first message on: the thread reports its store before it listens.
  const listenTo = (current: Worker) =>
    current.on('message', (message: FromRelayThread) => {
      if (message.type === 'log') forwardLogLine(logger, message.line);
      else if (message.type === 'health') health = message.health;
    });
  let worker = spawn(settings, options.maxHeapMb);
  listenTo(worker);
  const first = await started(worker);
  const fixed = { ...settings, port: first.port };
  let restarts = 0;
  let delay = options.restartDelayMs ?? 1_000;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let startedAt = Date.now();
  let alive = true;

  const down = (reason: string) => {
    health = {
      ...health,
      store: { ...health.store, ok: false, error: reason },
      connections: 0,
      queued_bytes: 0,
    };
  };
  const attach = (current: Worker) => {
    current.on('error', (error) => logger.error({ err: error }, 'embedded relay thread failed'));
    current.on('exit', (code) => {
      alive = false;
      if (stopping) return;
      down('the relay thread stopped; starting it again');
      if (Date.now() - startedAt > STABLE_AFTER_MS) delay = options.restartDelayMs ?? 1_000;
      logger.error({ code, restart_in_ms: delay }, 'embedded relay thread stopped: starting it again');
      restartTimer = setTimeout(restart, delay);
      delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    });
  };
  const restart = () => {
    restartTimer = null;
    if (stopping) return;
    worker = spawn(fixed, options.maxHeapMb);
    startedAt = Date.now();
    alive = true;
    listenTo(worker);
    attach(worker);
    started(worker).then(
      () => {
        restarts++;
        logger.info({ url: first.url, restarts }, 'embedded relay thread started again');
      },
      (error: unknown) => logger.error({ err: error }, 'embedded relay thread could not start again'),
    );
  };
  attach(worker);

  return {
    url: first.url,
    port: first.port,
    health: () => ({ ...health, restarts }),
    terminateThread: async () => {
      await worker.terminate();
    },
    close: async () => {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      if (!alive) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      const close: ToRelayThread = { type: 'close' };
      worker.postMessage(close);
      // A thread that does not finish closing in time is stopped: the store's last commit is durable anyway.
      const timer = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
