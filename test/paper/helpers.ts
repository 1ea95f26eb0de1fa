import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type MarketIntelClient } from "../../src/index.js";
import { liveClock, startReplayServer, type LiveClock, type ReplayServer } from "../../src/server/index.js";
import type { FaultOptions } from "../../src/server/faults.js";

/** Start of the simulated clock in these tests. */
export const START = Date.UTC(2026, 10, 1);

/** A replay server in live mode on an on-demand clock (or one step per everyMs), no rate limit, and a client that does not cache. */
export async function liveServer(o: { stepMs?: number; everyMs?: number; faults?: FaultOptions; seed?: number } = {}): Promise<{ server: ReplayServer; live: LiveClock; client: MarketIntelClient; close: () => Promise<void> }> {
  const live = liveClock({ start: START, stepMs: o.stepMs ?? 60_000, ...(o.everyMs !== undefined ? { everyMs: o.everyMs } : {}) });
  const server = await startReplayServer({ clock: live.now, rateLimitPerMinute: 0, seed: o.seed ?? 7, ...(o.faults !== undefined ? { faults: o.faults } : {}) });
  const client = createClient({ baseUrl: server.url, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000, retries: 6, retryDelayMs: 5, maxRetryDelayMs: 50, timeoutMs: 2_000 });
  return { server, live, client, close: () => server.close() };
}

export function tempStore(): string {
  return mkdtempSync(join(tmpdir(), "milab-paper-"));
}

/** Trend strategy: long above the mean of the last n closes, short below (causal: reads bars before i and i). */
export const trend = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const x = c["close"] as Float64Array;
  const n = p["n"] as number;
  const out = new Float64Array(x.length);
  for (let i = n; i < x.length; i++) {
    let s = 0;
    for (let k = i - n; k < i; k++) s += x[k] as number;
    out[i] = (x[i] as number) > s / n ? 1 : -1;
  }
  return out;
};

/** A strategy that peeks one bar ahead: long when the next close is higher. */
export const peeking = (c: Readonly<Record<string, Float64Array>>): Float64Array => {
  const x = c["close"] as Float64Array;
  return Float64Array.from(x, (v, i) => (i + 1 < x.length && (x[i + 1] as number) > v ? 1 : 0));
};
