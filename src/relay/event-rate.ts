/**
 * Events accepted per client address in a fixed one-minute window. Windows are forgotten once they end, so
 * the map holds at most the addresses seen in the current minute.
 */
export class EventRate {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly maxPerMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts one event from `address`; false when the address is over its allowance for this minute. */
  take(address: string): boolean {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.windowStart) {
      this.windowStart = minute;
      this.counts.clear();
    }
    const used = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, used);
    return used <= this.maxPerMinute;
  }
}
