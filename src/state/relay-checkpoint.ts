import type { Logger } from 'pino';
import type { StationDb } from './station-db.js';

const EVERY_MS = 60_000;

/**
 * The bot's resume point on its relays, kept across restarts so a restart fetches only what it missed (not a
 * whole day of events to verify again). The point saved lags one interval behind the newest event seen: an
 * event received just before a crash may not have reached its stream's journal yet, and is fetched again
 * (the streams are idempotent by event id).
 */
export class RelayCheckpoint {
  private sample: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly meta: StationDb['meta'],
    private readonly key: string,
    private readonly newestSeen: () => number | null,
    private readonly logger?: Logger,
  ) {}

  /** The saved resume point, unix seconds, or null on a first start. */
  static load(meta: StationDb['meta'], key: string): number | null {
    const value = meta.get(key);
    return typeof value === 'number' ? value : null;
  }

  start(): void {
    this.timer ??= setInterval(() => this.save(), EVERY_MS).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private save(): void {
    const previous = this.sample;
    this.sample = this.newestSeen();
    if (previous === null || previous <= (RelayCheckpoint.load(this.meta, this.key) ?? 0)) return;
    this.meta.put(this.key, previous).catch((error: unknown) => {
      this.logger?.warn({ err: error }, 'relay resume point not saved');
    });
  }
}
