/**
 * Round trip: every endpoint of the replay server (src/server) through the
 * client, including every `_variant` of history and analytics. The server's
 * clock is fixed so responses are reproducible.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, ENDPOINTS, type MarketIntelClient } from "../../src/api/index.js";
import { firstRecordArray } from "../../src/api/schemas/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { DEFAULT_SCORERS } from "../../src/signals/scorers.js";
import { DEFAULT_WEIGHTS } from "../../src/signals/weights.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
let observed: ReplayServer;
let documented: ReplayServer;
let c: MarketIntelClient;
let d: MarketIntelClient;

beforeAll(async () => {
  observed = await startReplayServer({ clock: () => NOW, seed: 42, rateLimitPerMinute: 0 });
  documented = await startReplayServer({
    clock: () => NOW,
    seed: 42,
    rateLimitPerMinute: 0,
    variants: { snapshot: "documented", volatility: "documented", whaleFlow: "documented", regime: "documented" },
  });
  c = createClient({ baseUrl: observed.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
  d = createClient({ baseUrl: documented.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
});
afterAll(async () => {
  await observed.close();
  await documented.close();
});

describe("replay server round trip: resources in both shapes", () => {
  it("snapshot: documented btc_price / eth_price equal the observed catalog values", async () => {
    const o = await c.snapshot();
    const dd = await d.snapshot();
    expect([o.variant, dd.variant]).toEqual(["observed", "documented"]);
    const value = (id: string) => o.metrics.find((m) => m.metric_id === id)?.value;
    const docValue = (id: string) => dd.metrics.find((m) => m.metric_id === id)?.value;
    expect(docValue("btc_price")).toBe(value("btc_price"));
    expect(docValue("eth_price")).toBe(value("eth_price"));
    expect(o.catalog_total).toBe(o.metrics.length);
  });

  it("volatility: documented realized_vol_1d maps to the observed '24h' value for every coin", async () => {
    const o = await c.volatility();
    const dd = await d.volatility();
    expect(o.volatility.map((e) => e.coin)).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    for (const [i, e] of dd.volatility.entries()) {
      expect(e.realized_vol["24h"]).toBe(o.volatility[i]!.realized_vol["24h"]);
      expect(e.realized_vol["5m"]).toBe(o.volatility[i]!.realized_vol["5m"]);
      expect(e.atr["1h"]).toBe(o.volatility[i]!.atr["1h"]);
    }
    expect((await c.volatility({ coin: "sol" })).volatility.map((e) => e.coin)).toEqual(["SOL"]);
  });

  it("whale flow: single coin object, all-coin array, documented net flow = observed imbalance", async () => {
    const one = await c.whaleFlow({ coin: "BTC" });
    const all = await c.whaleFlow();
    const dd = await d.whaleFlow();
    expect(one.whale_flow).toHaveLength(1);
    expect(all.whale_flow).toHaveLength(4);
    if (all.variant !== "observed" || dd.variant !== "documented") throw new Error("unexpected variants");
    expect(dd.whale_flow.map((e) => e.net_flow)).toEqual(all.whale_flow.map((e) => e.whale_imbalance));
  });

  // Plumbing: the server builds its composite with DEFAULT_SCORERS and DEFAULT_WEIGHTS, so this checks the
  // parse of the methodology text and the component layout, not the scorers (see publishedComposite.test.ts).
  it("composite: weights parsed from the served methodology are DEFAULT_WEIGHTS, and the served components add up to the served score (round trip)", async () => {
    const comp = await c.composite();
    expect(comp.weights_source).toBe("methodology");
    expect(comp.weights).toEqual({ ...DEFAULT_WEIGHTS });
    expect(comp.signals).toHaveLength(4);
    for (const s of comp.signals) {
      expect(Array.isArray(s.risk_warnings)).toBe(true);
      let sum = 0;
      for (const [name, w] of Object.entries(comp.weights)) {
        const scorer = DEFAULT_SCORERS[name as keyof typeof DEFAULT_SCORERS];
        sum += w * scorer(s.components[name]!.value as number);
      }
      expect(sum).toBeCloseTo(s.composite_score as number, 9);
    }
  });

  it("regime: observed regimes[]; documented adds regime, confidence, transition_probs", async () => {
    const o = await c.regime();
    const dd = await d.regime();
    expect(o.regimes).toHaveLength(4);
    expect(o.regime).toBeUndefined();
    expect(dd.variant).toBe("documented");
    expect(["risk_on", "risk_off", "neutral"]).toContain(dd.regime);
    expect(Object.keys(dd.transition_probs ?? {}).sort()).toEqual(["neutral", "risk_off", "risk_on"]);
  });

  it("the ten other endpoints return JSON objects", async () => {
    for (const name of ["liquidations", "safety", "spreads", "correlation", "depth", "imbalance", "priorityGas", "squeeze", "arbitrage", "smartMoney"] as const) {
      const body = await c[name]();
      expect(typeof body, name).toBe("object");
      expect(Object.keys(body).length, name).toBeGreaterThan(0);
    }
    expect(firstRecordArray(await c.liquidations())?.length).toBe(4);
  });
});

describe("replay server round trip: history and analytics in every form", () => {
  it("history: all five _variants give the same 1440 points; the last equals the snapshot value", async () => {
    const base = await c.history({ coin: "BTC", metricId: "btc_price", hours: 24 });
    expect(base.variant).toBe("wrapped");
    expect(base.time.length).toBe(1440);
    expect(base.time[1]! - base.time[0]!).toBe(60_000);
    expect(base.dropped).toEqual({ nulls: 0, duplicates: 0, conflicts: 0 });
    const snap = await c.snapshot();
    expect(base.value.at(-1)).toBe(snap.metrics.find((m) => m.metric_id === "btc_price")?.value);
    for (const v of ["array", "pairs", "columnar", "rows"]) {
      const h = await c.history({ coin: "btc", metricId: "btc_price", hours: 24, extraParams: { _variant: v } });
      expect(h.variant, v).toBe(v);
      expect([...h.time], v).toEqual([...base.time]);
      expect([...h.value], v).toEqual([...base.value]);
    }
  });

  it("history: 'price' with a coin resolves server-side; hours 720 returns 43 200 points", async () => {
    const h = await c.history({ coin: "ETH", metricId: "price", hours: 720 });
    expect(h.metricId).toBe("eth_price");
    expect(h.time.length).toBe(43_200);
  });

  it("analytics: nested, records and columns, paged by offset, cursor and next_uri, give the same rows", async () => {
    const params = { dataset: "metrics", metricId: "btc_price,eth_price", interval: "5m", start: NOW - 3_600_000, end: NOW, limit: 7 } as const;
    const nested = await c.analyticsQuery(params);
    expect(nested.variant).toBe("nested");
    expect(nested.columns).toEqual(["time", "coin", "metric_id", "value"]);
    expect(nested.pages).toBeGreaterThan(1);
    expect(nested.rows.length).toBe(nested.metadata["total_rows"]);
    for (const v of ["records", "columns"]) {
      const r = await c.analyticsQuery({ ...params, extraParams: { _variant: v } });
      expect(r.variant, v).toBe(v);
      expect(r.columns, v).toEqual(nested.columns);
      expect(r.rows, v).toEqual(nested.rows);
      expect(r.pages, v).toBe(nested.pages);
    }
  });

  it("analytics: candles and composite datasets; maxPages truncates", async () => {
    const candles = await c.analyticsQuery({ dataset: "candles", coin: "BTC", interval: "1h", start: NOW - 6 * 3_600_000, end: NOW });
    expect(candles.columns).toEqual(["time", "coin", "open", "high", "low", "close", "volume"]);
    expect(candles.rows.length).toBeGreaterThan(0);
    const comp = await c.analyticsQuery({ dataset: "composite", coin: ["btc", "eth"], interval: "15m", start: NOW - 3_600_000, end: NOW });
    expect(comp.columns.slice(0, 6)).toEqual(["time", "coin", "composite_score", "regime", "vol_regime", "confidence"]);
    const few = createClient({ baseUrl: observed.url, rateLimitPerMinute: 100_000, maxPages: 2 });
    const t = await few.analyticsQuery({ metricId: "btc_price", coin: "BTC", limit: 5, start: NOW - 3_600_000, end: NOW });
    expect(t.truncated).toBe(true);
    expect(t.rows).toHaveLength(10);
  });

  it("covers all 17 endpoint paths", () => {
    expect(Object.values(ENDPOINTS)).toHaveLength(17);
  });
});

describe("replay server round trip: faults", () => {
  it("with a third of the answers an injected 503, retries still deliver every answer", async () => {
    const statuses: number[] = [];
    const flaky = await startReplayServer({
      clock: () => NOW,
      rateLimitPerMinute: 0,
      faults: { errorRate: 0.33, seed: 3 },
      onRequest: (info) => statuses.push(info.status),
    });
    try {
      const client = createClient({ baseUrl: flaky.url, rateLimitPerMinute: 100_000, retryDelayMs: 1, retries: 6, cacheTtlMs: 0 });
      for (let i = 0; i < 8; i++) expect((await client.composite()).signals).toHaveLength(4);
      expect(statuses.filter((x) => x === 503).length).toBeGreaterThan(0);
      expect(statuses.filter((x) => x === 200)).toHaveLength(8);
    } finally {
      await flaky.close();
    }
  });

  it("truncated bodies are retried then reported as NetworkError; non-JSON bodies as MalformedResponseError", async () => {
    const cut = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0, faults: { truncateRate: 1 } });
    const html = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0, faults: { malformedRate: 1 } });
    try {
      const opts = { rateLimitPerMinute: 100_000, retryDelayMs: 1, retries: 1 };
      const e1 = await createClient({ baseUrl: cut.url, ...opts }).composite().catch((e: unknown) => e);
      expect((e1 as Error).name).toBe("NetworkError");
      const e2 = await createClient({ baseUrl: html.url, ...opts }).composite().catch((e: unknown) => e);
      expect((e2 as Error).name).toBe("MalformedResponseError");
    } finally {
      await cut.close();
      await html.close();
    }
  });

  it("the server's own 429 (rate limit 2/min) ends in RateLimitedError when retries run out", async () => {
    const strict = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 2 });
    try {
      const client = createClient({ baseUrl: strict.url, rateLimitPerMinute: 100_000, retries: 0, cacheTtlMs: 0 });
      await client.snapshot();
      await client.snapshot();
      const err = await client.snapshot().catch((e: unknown) => e);
      expect((err as Error).name).toBe("RateLimitedError");
      expect((err as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });
});
