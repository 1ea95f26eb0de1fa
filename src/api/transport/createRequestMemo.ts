/** Where a memoised answer came from. */
export type MemoSource = "network" | "cache" | "in-flight";

/** A response cache with in-flight de-duplication, keyed by URL. */
export interface RequestMemo {
  /**
   * The body for `key`: from the cache while fresh, else from an identical
   * request already running, else from `fetcher` (whose `ttlMs` decides how
   * long the body stays fresh; 0 = not cached). Failures are never cached.
   */
  run(key: string, fetcher: () => Promise<{ body: unknown; ttlMs: number }>): Promise<{ body: unknown; source: MemoSource }>;
  /** Forget every cached body (requests in flight are unaffected). */
  clear(): void;
}

/**
 * Create a RequestMemo. `clock` (epoch ms) is the clock of expiry; expired
 * bodies are dropped whenever a new one is stored, so memory holds only
 * fresh responses. Cached bodies are shared: callers must not mutate them
 * (the client hands out normalised copies).
 * @example
 * const memo = createRequestMemo(Date.now);
 * await memo.run(url, async () => ({ body: await get(url), ttlMs: 45_000 }));
 */
export function createRequestMemo(clock: () => number): RequestMemo {
  const cache = new Map<string, { expires: number; body: unknown }>();
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    async run(key, fetcher) {
      const hit = cache.get(key);
      if (hit !== undefined) {
        if (hit.expires > clock()) return { body: hit.body, source: "cache" };
        cache.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending !== undefined) return { body: await pending, source: "in-flight" };
      const started = (async () => {
        const { body, ttlMs } = await fetcher();
        if (ttlMs > 0) {
          const t = clock();
          // Expired entries would otherwise stay until asked for again: drop them here.
          for (const [k, v] of cache) if (v.expires <= t) cache.delete(k);
          cache.set(key, { expires: t + ttlMs, body });
        }
        return body;
      })();
      inFlight.set(key, started);
      try {
        return { body: await started, source: "network" };
      } finally {
        inFlight.delete(key);
      }
    },
    clear() {
      cache.clear();
    },
  };
}
