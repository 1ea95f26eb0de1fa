import type { MarketIntelClient } from "../api/createClient.js";
import type { Store } from "../store/Store.js";
import type { MinuteSeries } from "./barsFromMinutes.js";

/**
 * Where a paper trader reads the bars from: minute series of each metric it needs, from `fromMs`
 * on, as far as they are published. A feed only reads; the paper trader builds the bars
 * (barsFromMinutes) and decides which are closed.
 */
export interface PaperFeed {
  /** What the feed reads from, for messages ("http://127.0.0.1:8080", "store /data/mi"). */
  readonly source: string;
  /** How far back from its latest minute the feed can read, ms (the history API: 720 hours) [no limit]. */
  readonly reachMs?: number;
  /** Minute points of each metric id from `fromMs` (epoch ms; NaN: only the latest hour) up to the latest published. */
  read(metricIds: readonly string[], coin: string, fromMs: number): Promise<Record<string, MinuteSeries>>;
}

const HOUR_MS = 3_600_000;
/** Largest `hours` of /v1/history. */
const MAX_HOURS = 720;

/**
 * A feed polling `/v1/history` through the client (its rate limiter, retries and typed errors
 * apply; give the client `cacheTtlMs: 0`, or polls within the cache's lifetime see the same
 * minutes). Each read asks for the fewest whole hours that reach back to `fromMs` from the
 * latest minute seen so far, and doubles the window (up to 720 hours, the API's limit) while
 * the answer does not reach back: a restart after a long stop catches up from history.
 */
export function historyFeed(client: Pick<MarketIntelClient, "history" | "baseUrl">): PaperFeed {
  let latest = Number.NaN;
  return {
    source: client.baseUrl,
    reachMs: MAX_HOURS * HOUR_MS,
    async read(metricIds, coin, fromMs) {
      const out: Record<string, MinuteSeries> = {};
      for (const metricId of metricIds) {
        let hours = Number.isNaN(fromMs) || !(latest > fromMs) ? 1 : Math.min(MAX_HOURS, Math.ceil((latest - fromMs) / HOUR_MS) + 1);
        for (;;) {
          const h = await client.history({ coin, metricId, hours });
          const n = h.time.length;
          const last = n > 0 ? (h.time[n - 1] as number) : Number.NaN;
          if (n > 0 && !(last <= latest)) latest = last;
          // the window the answer covers starts hours back from its last minute
          const reaches = n === 0 || Number.isNaN(fromMs) || last - hours * HOUR_MS + 60_000 <= fromMs;
          if (reaches || hours >= MAX_HOURS) {
            out[metricId] = { time: h.time, value: h.value };
            break;
          }
          hours = Math.min(MAX_HOURS, Math.max(hours * 2, Math.ceil((last - fromMs) / HOUR_MS) + 1));
        }
      }
      return out;
    },
  };
}

/** A feed reading the minutes a recorder saved into a store (`store.readHistory`). */
export function storeFeed(store: Pick<Store, "readHistory" | "dir">): PaperFeed {
  return {
    source: `store ${store.dir}`,
    async read(metricIds, coin, fromMs) {
      const out: Record<string, MinuteSeries> = {};
      for (const metricId of metricIds) {
        const p = await store.readHistory({ metricId, coin, ...(Number.isNaN(fromMs) ? {} : { start: fromMs }) });
        const v = p.columns[metricId] as Float64Array;
        const keep: number[] = [];
        for (let i = 0; i < p.time.length; i++) if (v[i] === v[i]) keep.push(i);
        out[metricId] = { time: Float64Array.from(keep, (i) => p.time[i] as number), value: Float64Array.from(keep, (i) => v[i] as number) };
      }
      if (Number.isNaN(fromMs)) {
        // only the latest hour, as the history feed
        for (const s of Object.values(out)) {
          const n = s.time.length;
          if (n === 0) continue;
          const from = (s.time[n - 1] as number) - HOUR_MS + 60_000;
          let a = 0;
          while ((s.time[a] as number) < from) a++;
          Object.assign(s, { time: (s.time as Float64Array).subarray(a), value: (s.value as Float64Array).subarray(a) });
        }
      }
      return out;
    },
  };
}
