/**
 * Per-client sliding one-minute window, as the live service limits the public
 * tier (60 requests a minute per IP). `limit` 0 disables it.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly limit: number, private readonly windowMs = 60_000) {}

  /** Record a request; returns 0 when allowed, else the ms until the next slot frees. */
  take(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      return (list[0] as number) + this.windowMs - now;
    }
    list.push(now);
    this.hits.set(key, list);
    return 0;
  }
}
