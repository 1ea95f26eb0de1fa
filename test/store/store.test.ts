import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { fromDataFrame } from "../../src/data/index.js";
import { loadHistory } from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { openStore } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";

// 2026-11-01T00:00:00Z
const T0 = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

function tmp(name: string): string {
  return mkdtempSync(join(tmpdir(), `milab-store-${name}-`));
}

describe("openStore: saveHistory / readHistory", () => {
  it("writes one Hive partition per coin and UTC day (one column per metric) that DuckDB reads as it is", async () => {
    const dir = tmp("hive");
    const store = openStore(dir);
    // 3 points: 23:59 on 31 Oct, 00:00 and 00:01 on 1 Nov (UTC): two day partitions.
    await store.saveHistory({ metricId: "btc_price", time: [T0 - 60_000, T0, T0 + 60_000], value: [1, 2, NaN] });
    await store.saveHistory({ coin: "BTC", metricId: "volume", time: [T0 + 120_000], value: [7] });
    await store.saveHistory({ coin: "ETH", metricId: "price", time: [T0], value: [10] });
    await store.saveHistory({ metricId: "eth_basefee_live", time: [T0], value: [0.5] });
    expect(readdirSync(join(dir, "endpoint=history/coin=btc")).sort()).toEqual(["day=2026-10-31", "day=2026-11-01"]);
    expect(existsSync(join(dir, "endpoint=history/coin=eth/day=2026-11-01/part-0.parquet"))).toBe(true);
    const rows = await duck(
      `select coin, day::varchar as day, epoch_ms(time)::double as t, price, volume, basefee_live from read_parquet(${lit(join(dir, "endpoint=history/**/*.parquet"))}, hive_partitioning = true, union_by_name = true) order by coin, t`,
    );
    expect(rows).toEqual([
      { coin: "btc", day: "2026-10-31", t: T0 - 60_000, price: 1, volume: null, basefee_live: null },
      { coin: "btc", day: "2026-11-01", t: T0, price: 2, volume: null, basefee_live: null },
      { coin: "btc", day: "2026-11-01", t: T0 + 60_000, price: null, volume: null, basefee_live: null },
      { coin: "btc", day: "2026-11-01", t: T0 + 120_000, price: null, volume: 7, basefee_live: null },
      { coin: "eth", day: "2026-11-01", t: T0, price: 10, volume: null, basefee_live: 0.5 },
    ]);
    store.close();
  });

  it("a point saved again replaces the stored one (no duplicates); series read back align on the union of times", async () => {
    const store = openStore(tmp("merge"));
    await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000], value: [1, 2] });
    await store.saveHistory({ metricId: "btc_price", time: [T0 + 60_000, T0 + 120_000], value: [20, 30] });
    await store.saveHistory({ metricId: "btc_volume", time: [T0 + 60_000], value: [5] });
    const p = await store.readHistory({ metricIds: ["price", "volume"], coin: "BTC" });
    expect(Array.from(p.time)).toEqual([T0, T0 + 60_000, T0 + 120_000]);
    expect(Array.from(p.columns.btc_price!)).toEqual([1, 20, 30]);
    expect(Array.from(p.columns.btc_volume!)).toEqual([NaN, 5, NaN]);
    const volume = await store.readHistory({ metricIds: ["btc_volume"] });
    expect(Array.from(volume.time)).toEqual([T0 + 60_000]); // only the rows where that metric has a point
    const empty = await store.readHistory({ metricIds: ["sol_price"] });
    expect(empty.time.length).toBe(0);
    store.close();
  });

  it("reads [start, end) and opens only the day folders that meet it (a corrupt day outside the range is never touched)", async () => {
    const dir = tmp("pushdown");
    const store = openStore(dir);
    const time = Array.from({ length: 3 * 1440 }, (_, i) => T0 + i * 60_000); // 1..3 Nov, one a minute
    await store.saveHistory({ metricId: "btc_price", time, value: time.map((_, i) => i) });
    writeFileSync(join(dir, "endpoint=history/coin=btc/day=2026-11-03/part-0.parquet"), "garbage");
    const p = await store.readHistory({ metricIds: ["btc_price"], start: "2026-11-01T23:59:00", end: "2026-11-03" });
    expect(p.time.length).toBe(1441); // 23:59 on 1 Nov + all 1440 minutes of 2 Nov; 3 Nov 00:00 excluded
    expect(p.columns.btc_price![0]).toBe(1439);
    expect(p.columns.btc_price![1440]).toBe(2879);
    await expect(store.readHistory({ metricIds: ["btc_price"], start: "2026-11-02", end: T0 + 2 * DAY + 1 })).rejects.toThrow(/day=2026-11-03\/part-0.parquet" is not a readable Parquet file/);
    store.close();
  });

  it("query runs SQL with DuckDB over the store and returns a DataFrame", async () => {
    const store = openStore(tmp("sql"));
    await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000, T0 + DAY], value: [1, 3, 5] });
    await store.saveHistory({ metricId: "eth_price", time: [T0], value: [7] });
    const df = await store.query("select coin, count(price) as n, avg(price) as mean, min(epoch_ms(time)) as first from history group by coin order by coin");
    expect(df.columns).toEqual(["coin", "n", "mean", "first"]);
    // btc: 3 points, mean (1 + 3 + 5) / 3 = 3; eth: 1 point, 7
    expect(df.column("coin").values).toEqual(["btc", "eth"]);
    expect(df.column("n").values).toEqual([3, 1]);
    expect(df.column("mean").values).toEqual([3, 7]);
    expect(df.column("first").values).toEqual([T0, T0]);
    await expect(store.query("select * from nowhere")).rejects.toThrow("store.query: DuckDB rejected the query");
    store.close();
  });

  it("rejects bad arguments with the fix", async () => {
    expect(() => openStore("")).toThrow("openStore: dir must be a non-empty folder path");
    const store = openStore(tmp("args"));
    await expect(store.saveHistory({ metricId: "btc_price", time: [T0], value: [] })).rejects.toThrow("give one value per time");
    await expect(store.saveHistory({ metricId: "../x", time: [], value: [] })).rejects.toThrow("metric id must be letters");
    await expect(store.readHistory({ metricIds: [] })).rejects.toThrow("store.readHistory: give metricIds");
    await expect(store.readHistory({ metricIds: ["btc_price"], start: "soon" })).rejects.toThrow("store.readHistory: start must be epoch ms");
    store.close();
  });
});

describe("loadHistory with a store", () => {
  let server: ReplayServer;
  let now = Date.UTC(2026, 10, 22, 12, 0, 30);
  const paths: string[] = [];
  beforeAll(async () => {
    server = await startReplayServer({ clock: () => now, seed: 7, rateLimitPerMinute: 0, onRequest: (r) => void paths.push(r.path) });
  });
  afterAll(async () => {
    await server.close();
  });
  const client = (): ReturnType<typeof createClient> => createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, cacheTtlMs: 0 });
  const historyRequests = (): string[] => paths.filter((p) => p.startsWith("/v1/history"));

  it("fetches a window once; a re-run makes no history request and gives the same frame as fetching", async () => {
    const store = openStore(tmp("loader"), { clock: () => now });
    const params = { coin: "BTC", metricIds: ["price", "funding_rate"], hours: 48 } as const;
    paths.length = 0;
    const first = await loadHistory(client(), { ...params, store });
    expect(historyRequests().length).toBe(2);
    paths.length = 0;
    const again = await loadHistory(client(), { ...params, store });
    expect(historyRequests()).toEqual([]);
    paths.length = 0;
    const direct = await loadHistory(client(), params); // the reference: straight from the server
    expect(historyRequests().length).toBe(2);
    for (const df of [first, again]) {
      expect(df.columns).toEqual(direct.columns);
      const a = fromDataFrame(df);
      const b = fromDataFrame(direct);
      expect(a.time).toEqual(b.time);
      for (const c of Object.keys(b.columns)) expect(a.columns[c]).toEqual(b.columns[c]);
    }
    expect(fromDataFrame(first).time.length).toBe(48 * 60);
    // A smaller window inside the stored one: no request either.
    paths.length = 0;
    await loadHistory(client(), { ...params, hours: 6, store });
    expect(historyRequests()).toEqual([]);
    store.close();
  });

  it("three hours later, only the missing hours are fetched, and the result still equals a direct fetch", async () => {
    const store = openStore(tmp("gap"), { clock: () => now });
    const params = { coin: "ETH", metricIds: ["price"], hours: 24 } as const;
    await loadHistory(client(), { ...params, store });
    now += 3 * 3_600_000;
    paths.length = 0;
    const later = await loadHistory(client(), { ...params, store });
    expect(historyRequests().length).toBe(1);
    expect(historyRequests()[0]).toContain("hours=3");
    const direct = await loadHistory(client(), params);
    expect(fromDataFrame(later).time).toEqual(fromDataFrame(direct).time);
    expect(fromDataFrame(later).columns.eth_price).toEqual(fromDataFrame(direct).columns.eth_price);
    expect(store.coverage("eth_price").length).toBe(1); // one merged interval
    store.close();
  });
});

describe("notebook 06 (its committed run, executed by test/notebooks)", () => {
  it("shows a re-run with the store making no history request", () => {
    const nb = JSON.parse(readFileSync(join(import.meta.dirname, "../../notebooks/06-recording.ipynb"), "utf8")) as { cells: { outputs?: { text?: string | string[] }[] }[] };
    const out = nb.cells.flatMap((c) => c.outputs ?? []).map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? ""))).join("");
    expect(out).toMatch(/first run: [1-9]\d* history requests; re-run: 0 history requests/);
  });
});
