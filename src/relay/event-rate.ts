/**
 * Events accepted per client address (its addressKey) in a fixed one-minute window, counted both in events
 * and in bytes: 300 notes of 128 KiB are within a count allowance and still 38 MiB a minute to verify, store
 * and fan out. Windows are forgotten once they end, so the map holds at most the addresses seen this minute.
 */
export class EventRate {
  private windowStart = 0;
  private readonly used = new Map<string, { events: number; bytes: number }>();

  constructor(
    private readonly maxPerMinute: number,
    private readonly maxBytesPerMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts one event of `bytes` from `key`; the allowance it passes, or null while within both. */
  take(key: string, bytes: number): 'events' | 'bytes' | null {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.windowStart) {
      this.windowStart = minute;
      this.used.clear();
    }
    const used = this.used.get(key) ?? { events: 0, bytes: 0 };
    this.used.set(key, used);
    if (used.events + 1 > this.maxPerMinute) return 'events';
    if (used.bytes + bytes > this.maxBytesPerMinute) return 'bytes';
    used.events++;
    used.bytes += bytes;
    return null;
  }
}
