import type { Logger } from 'pino';
import type { EventStore } from './store/event-store.js';

const SWEEP_EVERY_MS = 60_000;
const BATCH = 500;

/**
 * Removes expired events and, above the retention cap, the oldest ones, a small batch at a time with a turn
 * of the event loop between batches, so retention never pauses the relay.
 */
export function startSweeping(store: EventStore, now: () => number, logger?: Logger): { stop(): void } {
  let stopped = false;
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      let removed = 0;
      let batch: number;
      do {
        batch = await store.sweep(Math.floor(now() / 1000), BATCH);
        removed += batch;
        await new Promise((resolve) => setImmediate(resolve));
      } while (batch === BATCH && !stopped);
      if (removed > 0) logger?.info({ removed }, 'embedded relay: expired or old events removed');
    } catch (error) {
      logger?.warn({ err: error }, 'embedded relay: sweep failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), SWEEP_EVERY_MS).unref();
  void run();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
