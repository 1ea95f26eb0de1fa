/**
 * Loaders against the replay server (real HTTP on loopback, fixed clock).
 * Reference values come from the client's own parsed responses (the loaders
 * must not change them) and from hand-checked properties of the replay data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type MarketIntelClient } from "../../src/api/index.js";
import { fromDataFrame } from "../../src/data/index.js";
import { HttpError, InvalidArgumentError } from "../../src/errors/index.js";
import { concatColumns } from "../../src/load/concatColumns.js";
import { responseTimestamp } from "../../src/load/responseTimestamp.js";
import {
  analyticsToColumns,
  loadAnalyticsQuery,
  loadComposite,
  loadHistory,
  loadHistoryPanel,
  loadRegime,
  loadSignalRecords,
  loadSnapshot,
  loadVolatility,
  loadWhaleFlow,
  recordsToColumns,
  RECORD_ENDPOINTS,
  signalRecordColumns,
} from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const MINUTE = 60_000;
let server: ReplayServer;
let client: MarketIntelClient;
let requests = 0;

beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, seed: 42, rateLimitPerMinute: 0, onRequest: () => void requests++ });
  client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
});
afterAll(async () => {
  await server.close();
});

describe("loadHistoryPanel / loadHistory", () => {
  it("fetches several metrics into one wide panel whose values equal the client's series", async () => {
    const { panel, sources } = await loadHistoryPanel(client, { metricIds: ["btc_price", "eth_funding_rate"], hours: 2 });
    expect(Object.keys(panel.columns)).toEqual(["btc_price", "eth_funding_rate"]);
    expect(panel.time.length).toBe(120);
    // Last point is the current minute: 12:00 (the clock reads 12:00:30).
    expect(panel.time[119]).toBe(Date.UTC(2026, 10, 22, 12, 0));
    for (let i = 1; i < panel.time.length; i++) expect(panel.time[i]! - panel.time[i - 1]!).toBe(MINUTE);
    const ref = await client.history({ metricId: "btc_price", hours: 2 });
    expect(Array.from(panel.columns.btc_price!)).toEqual(Array.from(ref.value));
    expect(sources.btc_price).toMatchObject({ metricId: "btc_price", variant: "wrapped", hours: 2 });
  });

  it("per coin: 'price' for two coins gives btc_price and eth_price; DataFrame has time first, ascending and unique", async () => {
    const df = await loadHistory(client, { coin: ["btc", "ETH"], metricId: "price", hours: 1 });
    expect(df.columns).toEqual(["time", "btc_price", "eth_price"]);
    const p = fromDataFrame(df); // throws unless time is strictly ascending
    expect(p.time.length).toBe(60);
    const eth = await client.history({ coin: "ETH", metricId: "price", hours: 1 });
    expect(Array.from(p.columns.eth_price!)).toEqual(Array.from(eth.value));
  });

  it("series of different times: outer join on the union; exact leaves NaN, last carries within maxStalenessMs", async () => {
    // A stand-in client whose two metrics have different time stamps (funding hourly, price each 30 min).
    const H = 3_600_000;
    const fake = {
      history: async ({ metricId }: { metricId: string }) => ({
        metricId,
        hours: 3,
        variant: "wrapped" as const,
        dropped: { nulls: 0, duplicates: 0, conflicts: 0 },
        ...(metricId === "btc_funding_rate"
          ? { time: Float64Array.of(0, H, 2 * H), value: Float64Array.of(1e-5, 2e-5, 3e-5) }
          : { time: Float64Array.of(0.5 * H, 1.5 * H, 2.5 * H), value: Float64Array.of(100, 101, 102) }),
      }),
    } as unknown as MarketIntelClient;
    const exact = (await loadHistoryPanel(fake, { metricIds: ["btc_funding_rate", "btc_price"] })).panel;
    expect(Array.from(exact.time)).toEqual([0, 0.5 * H, H, 1.5 * H, 2 * H, 2.5 * H]);
    expect(Array.from(exact.columns.btc_funding_rate!)).toEqual([1e-5, NaN, 2e-5, NaN, 3e-5, NaN]);
    expect(Array.from(exact.columns.btc_price!)).toEqual([NaN, 100, NaN, 101, NaN, 102]);
    const last = (await loadHistoryPanel(fake, { metricIds: ["btc_funding_rate", "btc_price"], fill: "last", maxStalenessMs: 0.5 * H })).panel;
    expect(Array.from(last.columns.btc_funding_rate!)).toEqual([1e-5, 1e-5, 2e-5, 2e-5, 3e-5, 3e-5]);
    expect(Array.from(last.columns.btc_price!)).toEqual([NaN, 100, 100, 101, 101, 102]);
    const tight = (await loadHistoryPanel(fake, { metricIds: ["btc_funding_rate"], fill: "last", maxStalenessMs: 0 })).panel;
    expect(Array.from(tight.columns.btc_funding_rate!)).toEqual([1e-5, 2e-5, 3e-5]);
  });

  it("an empty series is a column of NaN on the others' grid", async () => {
    const fake = {
      history: async ({ metricId }: { metricId: string }) => ({
        metricId,
        hours: 1,
        variant: metricId === "a" ? ("empty" as const) : ("wrapped" as const),
        dropped: { nulls: 0, duplicates: 0, conflicts: 0 },
        time: metricId === "a" ? new Float64Array(0) : Float64Array.of(1, 2),
        value: metricId === "a" ? new Float64Array(0) : Float64Array.of(5, 6),
      }),
    } as unknown as MarketIntelClient;
    const { panel } = await loadHistoryPanel(fake, { metricIds: ["a", "b"] });
    expect(Array.from(panel.columns.a!)).toEqual([NaN, NaN]);
    expect(Array.from(panel.columns.b!)).toEqual([5, 6]);
    const only = await loadHistoryPanel(fake, { metricId: "a" });
    expect(only.panel.time.length).toBe(0);
  });

  it("every history body shape the service may send gives the same frame", async () => {
    const ref = (await loadHistoryPanel(client, { metricIds: ["eth_price", "eth_funding_rate"], hours: 3 })).panel;
    for (const variant of ["array", "pairs", "columnar", "rows"]) {
      const other = await startReplayServer({ clock: () => NOW, seed: 42, rateLimitPerMinute: 0, variants: { history: variant } });
      try {
        const c = createClient({ baseUrl: other.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
        const { panel, sources } = await loadHistoryPanel(c, { metricIds: ["eth_price", "eth_funding_rate"], hours: 3 });
        expect(sources.eth_price!.variant, variant).toBe(variant);
        expect(Array.from(panel.time), variant).toEqual(Array.from(ref.time));
        expect(Array.from(panel.columns.eth_funding_rate!), variant).toEqual(Array.from(ref.columns.eth_funding_rate!));
      } finally {
        await other.close();
      }
    }
  });

  it("concurrency bounds the requests in flight and keeps the output order", async () => {
    let inFlight = 0;
    let most = 0;
    const fake = {
      history: async ({ metricId }: { metricId: string }) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return { metricId, hours: 1, variant: "wrapped", dropped: { nulls: 0, duplicates: 0, conflicts: 0 }, time: Float64Array.of(0), value: Float64Array.of(Number(metricId.slice(1))) };
      },
    } as unknown as MarketIntelClient;
    const ids = Array.from({ length: 9 }, (_, i) => `m${i}`);
    const { panel } = await loadHistoryPanel(fake, { metricIds: ids, concurrency: 2 });
    expect(most).toBe(2);
    expect(Object.keys(panel.columns)).toEqual(ids);
    expect(Object.values(panel.columns).map((c) => c[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    await loadHistoryPanel(fake, { metricIds: ids, concurrency: 100 });
    expect(most).toBe(9);
  });

  it("the same metric twice gets a numbered second column rather than overwriting", async () => {
    const { panel } = await loadHistoryPanel(client, { metricIds: ["btc_price", "btc_price"], hours: 1 });
    expect(Object.keys(panel.columns)).toEqual(["btc_price", "btc_price_2"]);
  });

  it("unknown metric ids fail with the service's 404 naming the id", async () => {
    await expect(loadHistory(client, { metricId: "btc_nonsense", hours: 1 })).rejects.toThrow(HttpError);
    await expect(loadHistory(client, { metricId: "btc_nonsense", hours: 1 })).rejects.toThrow("btc_nonsense");
  });

  it("rejects bad parameters before any request", async () => {
    const before = requests;
    await expect(loadHistory(client, {} as never)).rejects.toThrow(
      'loadHistory: give exactly one of metricId (a string) or metricIds (a list), e.g. { metricIds: ["btc_price", "eth_price"] }',
    );
    await expect(loadHistory(client, { metricId: "a", metricIds: ["b"] })).rejects.toThrow(InvalidArgumentError);
    await expect(loadHistory(client, { metricIds: [] })).rejects.toThrow("loadHistory: metric ids must be non-empty strings, got []");
    await expect(loadHistory(client, { metricIds: [" "] })).rejects.toThrow(InvalidArgumentError);
    await expect(loadHistory(client, { metricId: "price", coin: [] })).rejects.toThrow("loadHistory: coin list is empty");
    await expect(loadHistory(client, { metricId: "btc_price", fill: "nearest" as "last" })).rejects.toThrow(
      'loadHistory: fill must be "exact" or "last", got "nearest"',
    );
    await expect(loadHistory(client, { metricId: "btc_price", maxStalenessMs: -1 })).rejects.toThrow("maxStalenessMs must be a number >= 0, got -1");
    await expect(loadHistory(client, { metricId: "btc_price", concurrency: 0 })).rejects.toThrow("loadHistory: concurrency must be a positive integer, got 0");
    await expect(loadHistory(client, { metricId: "btc_price", hours: 0 })).rejects.toThrow("hours must be a positive integer up to 720, got 0");
    await expect(loadHistory(client, { metricId: "price", coin: "DOGE" })).rejects.toThrow("coin must be one of BTC, ETH, SOL, HYPE");
    expect(requests).toBe(before);
  });
});

describe("loadAnalyticsQuery", () => {
  const end = Date.UTC(2026, 10, 22, 12, 0);
  const start = end - 3 * 3_600_000;

  it("metrics dataset, wide: one column per metric id, time unique ascending, values equal the long rows", async () => {
    const params = { dataset: "metrics" as const, metricId: ["btc_price", "eth_price"], start, end, interval: "1h" as const };
    const df = await loadAnalyticsQuery(client, params);
    expect(df.columns).toEqual(["time", "btc_price", "eth_price"]);
    const p = fromDataFrame(df);
    expect(Array.from(p.time)).toEqual([start, start + 3_600_000, start + 7_200_000, end]);
    const raw = await client.analyticsQuery(params);
    const btcRows = raw.rows.filter((r) => r[2] === "btc_price").map((r) => r[3]);
    expect(Array.from(p.columns.btc_price!)).toEqual(btcRows);
    // The metrics row at t holds the value known at t: same as the 1-minute history at that minute.
    const hist = await client.history({ metricId: "btc_price", hours: 4 });
    const at = hist.time.indexOf(start + 3_600_000);
    expect(p.columns.btc_price![1]).toBe(hist.value[at]);
  });

  it("candles for one coin: bare field names; for several coins: coin-prefixed", async () => {
    const one = await loadAnalyticsQuery(client, { dataset: "candles", coin: "BTC", start, end, interval: "1h" });
    expect(one.columns).toEqual(["time", "open", "high", "low", "close", "volume"]);
    const two = await loadAnalyticsQuery(client, { dataset: "candles", coin: ["BTC", "ETH"], start, end, interval: "1h" });
    expect(two.columns).toEqual(["time", "btc_open", "btc_high", "btc_low", "btc_close", "btc_volume", "eth_open", "eth_high", "eth_low", "eth_close", "eth_volume"]);
    const p1 = fromDataFrame(one);
    const p2 = fromDataFrame(two);
    expect(Array.from(p2.columns.btc_close!)).toEqual(Array.from(p1.columns.close!));
  });

  it("composite dataset keeps the string columns and component values; long shape keeps the service rows", async () => {
    const wide = await loadAnalyticsQuery(client, { dataset: "composite", coin: "SOL", start, end, interval: "1h" });
    expect(wide.columns.slice(0, 6)).toEqual(["time", "composite_score", "regime", "vol_regime", "confidence", "imbalance_value"]);
    const long = await loadAnalyticsQuery(client, { dataset: "composite", coin: ["SOL", "BTC"], start, end, interval: "1h" }, { shape: "long" });
    expect(long.shape[0]).toBe(8);
    expect(long.column("coin").values.slice(0, 2)).toEqual(["SOL", "BTC"]); // service order: time, then coins as asked
    await expect(loadAnalyticsQuery(client, { dataset: "composite" }, { shape: "tall" as "long" })).rejects.toThrow(
      'loadAnalyticsQuery: shape must be "wide" or "long", got "tall"',
    );
  });

  it("follows paging: a small page limit gives the same wide table as one page", async () => {
    const params = { dataset: "metrics" as const, metricId: ["btc_price", "sol_price"], start, end, interval: "15m" as const };
    const one = fromDataFrame(await loadAnalyticsQuery(client, params));
    const paged = fromDataFrame(await loadAnalyticsQuery(client, { ...params, limit: 7 }));
    expect(one.time.length).toBe(13);
    expect(Array.from(paged.time)).toEqual(Array.from(one.time));
    expect(Array.from(paged.columns.sol_price!)).toEqual(Array.from(one.columns.sol_price!));
  });

  it("analyticsToColumns: unsorted rows are sorted, a repeated key keeps the later row, null is NaN, empty result is empty", () => {
    const result = {
      columns: ["time", "coin", "metric_id", "value"],
      rows: [
        ["2026-01-01T00:01:00Z", "BTC", "btc_price", 2],
        ["2026-01-01T00:00:00Z", "BTC", "btc_price", 1],
        ["2026-01-01T00:01:00Z", "BTC", "btc_price", 3],
        ["2026-01-01T00:00:00Z", "ETH", "eth_price", null],
      ],
      metadata: {},
      pages: 1,
      truncated: false,
      variant: "nested" as const,
    };
    const cols = analyticsToColumns(result);
    expect(cols).toEqual({ time: [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1)], btc_price: [1, 3], eth_price: [NaN, NaN] });
    const long = analyticsToColumns(result, "long");
    expect(long.time).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1), Date.UTC(2026, 0, 1, 0, 1)]);
    expect(analyticsToColumns({ ...result, columns: [], rows: [] })).toEqual({ time: [] });
    expect(() => analyticsToColumns({ ...result, rows: [["soon", "BTC", "btc_price", 1]] })).toThrow("/v3/analytics/query: rows[].time at row 0 must be a time");
    expect(() => analyticsToColumns({ ...result, columns: ["when", "v"], rows: [[1, 2]] })).toThrow("no time column");
  });
});

describe("signal endpoint loaders", () => {
  it("composite: one row per coin, one column per component value and score, equal to the client's response", async () => {
    const df = await loadComposite(client);
    const ref = await client.composite();
    expect(df.column("coin").values).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    for (const name of ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"]) {
      expect(df.column(name).values).toEqual(ref.signals.map((s) => s.components[name]?.value));
      expect(df.column(`${name}_score`).values).toEqual(ref.signals.map((s) => s.components[name]?.score));
    }
    expect(df.column("time").values[0]).toBe(Date.UTC(2026, 10, 22, 12, 0));
    const btc = await loadComposite(client, { coin: "btc" });
    expect(btc.shape[0]).toBe(1);
  });

  it("volatility: realized vol and ATR per window, equal to the client's response", async () => {
    const df = await loadVolatility(client);
    const ref = await client.volatility();
    expect(df.columns).toEqual([
      "time", "coin", "mark_price", "realized_vol_5m", "realized_vol_1h", "realized_vol_4h", "realized_vol_24h",
      "atr_5m", "atr_1h", "atr_4h", "atr_24h", "regime",
    ]);
    expect(df.column("atr_1h").values).toEqual(ref.volatility.map((e) => e.atr["1h"]));
  });

  it("snapshot, regime and whale flow", async () => {
    const snap = await loadSnapshot(client);
    const ref = await client.snapshot();
    expect(snap.shape[0]).toBe(ref.catalog_total);
    expect(snap.column("metric_id").values[0]).toBe("btc_price");
    const regime = await loadRegime(client);
    expect(regime.column("coin").values).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    expect(regime.columns).toContain("regime_label");
    const whale = await loadWhaleFlow(client);
    expect(whale.columns).toContain("whale_orders_count");
    expect(whale.column("timestamp").values[0]).toBe(Date.UTC(2026, 10, 22, 12, 0));
    expect(whale.columns[0]).toBe("time");
    expect(whale.column("time").values).toEqual(whale.column("timestamp").values);
  });

  it("every other endpoint loads its record array with a time column", async () => {
    for (const name of RECORD_ENDPOINTS) {
      const df = await loadSignalRecords(client, name);
      expect(df.columns[0], name).toBe("time");
      expect(df.shape[0], name).toBeGreaterThan(0);
    }
    await expect(loadSignalRecords(client, "history" as never)).rejects.toThrow("loadSignalRecords: endpoint must be one of liquidations");
  });
});

describe("recordsToColumns and signalRecordColumns rules", () => {
  it("flattens nested objects, counts arrays of records, joins plain arrays, parses time fields, booleans as 1/0", () => {
    const records = [
      { coin: "BTC", atr: { "1h": 2 }, orders: [{ a: 1 }, { a: 2 }], tags: ["x", "y"], at_time: null, timestamp: "2026-01-01T00:00:00Z", ok: true },
      { coin: "ETH", atr: { "1h": null }, orders: [], tags: [], timestamp: "2026-01-01T00:00:00Z", ok: false, extra: "e" },
    ];
    const before = JSON.stringify(records);
    expect(recordsToColumns(records)).toEqual({
      coin: ["BTC", "ETH"],
      atr_1h: [2, NaN],
      orders_count: [2, 0],
      tags: ["x; y", ""],
      at_time: [NaN, NaN],
      timestamp: [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1)],
      ok: [1, 0],
      extra: ["", "e"],
    });
    expect(JSON.stringify(records)).toBe(before);
    expect(recordsToColumns([])).toEqual({});
  });
  it("a mixed number/string column becomes strings; a body without records is one row", () => {
    expect(recordsToColumns([{ v: 1 }, { v: "n/a" }])).toEqual({ v: ["1", "n/a"] });
    expect(signalRecordColumns({ timestamp: "2026-01-01T00:00:00Z", fee: 1.5, alerts: [] })).toEqual({
      time: [Date.UTC(2026, 0, 1)],
      fee: [1.5],
      alerts: [""],
    });
  });
});

describe("concatColumns and responseTimestamp", () => {
  it("concatColumns stacks tables on the union of their columns (NaN / \"\" where missing; mixed becomes strings)", () => {
    expect(concatColumns([{ a: [1], s: ["x"] }, { a: [2, 3], b: [NaN, 5] }, {}])).toEqual({ a: [1, 2, 3], s: ["x", "", ""], b: [NaN, NaN, 5] });
    expect(concatColumns([{ v: [1, NaN] }, { v: ["n/a"] }])).toEqual({ v: ["1", "", "n/a"] });
    expect(concatColumns([])).toEqual({});
  });
  it("responseTimestamp: top-level timestamp, else the latest record time stamp, else NaN", () => {
    expect(responseTimestamp({ timestamp: "2026-11-22T12:00:00Z", signals: [] })).toBe(Date.UTC(2026, 10, 22, 12));
    expect(responseTimestamp({ metrics: [{ time_chain: "2026-11-22T12:00:00Z" }, { time_chain: "2026-11-22T12:01:00Z" }, { time_chain: null }] })).toBe(Date.UTC(2026, 10, 22, 12, 1));
    expect(responseTimestamp({ methodology: "m", signals: [{ timestamp: "2026-11-22T11:59:00Z" }] })).toBe(Date.UTC(2026, 10, 22, 11, 59));
    expect(responseTimestamp({ chain: "ethereum" })).toBeNaN();
    expect(responseTimestamp([1, 2])).toBeNaN();
    expect(responseTimestamp(null)).toBeNaN();
  });
});
