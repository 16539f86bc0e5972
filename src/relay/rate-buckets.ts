/**
 * Token buckets by key (a connection, an address): `perSecond` tokens a second up to `burst`. Buckets that
 * have refilled are forgotten when the map grows, so idle keys cost nothing.
 */
export class RateBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  /** Takes one token from `key`'s bucket; false when it is empty. */
  take(key: string): boolean {
    const at = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(this.burst, bucket.tokens + ((at - bucket.at) / 1000) * this.perSecond)
      : this.burst;
    if (tokens < 1) {
      if (bucket) Object.assign(bucket, { tokens, at });
      return false;
    }
    if (!bucket && this.buckets.size >= 10_000) this.forgetFull(at);
    this.buckets.set(key, { tokens: tokens - 1, at });
    return true;
  }

  private forgetFull(at: number): void {
    for (const [key, bucket] of this.buckets)
      if (bucket.tokens + ((at - bucket.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
  }
}
