import { afterEach, describe, expect, it } from "vitest";
import { createClient, ENDPOINTS, type ClientEvent } from "../../src/api/index.js";
import { SchemaMismatchError } from "../../src/errors/index.js";
import { fixture, fixtureName, startFixtureServer, type FixtureServer, type Handler } from "./helpers/fixtureServer.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
async function serve(handler: Handler): Promise<FixtureServer> {
  server = await startFixtureServer(handler);
  return server;
}

/** Serves fixtures/api/<endpoint>/<_variant or default>.json. */
const fixtures: Handler = (r) => {
  const name = fixtureName(r.path);
  const fallback = name === "history" ? "wrapped" : name === "analytics" ? "nested" : "observed";
  return { body: fixture(name, r.query.get("_variant") ?? fallback) };
};

describe("every endpoint through the client, from the fixtures", () => {
  it("has 17 endpoints, each called at its own path", async () => {
    const s = await serve(fixtures);
    const c = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 });
    expect(Object.keys(ENDPOINTS)).toHaveLength(17);
    const snap = await c.snapshot();
    expect(snap.variant).toBe("observed");
    expect((await c.volatility({ coin: "eth" })).volatility[1]!.coin).toBe("ETH");
    expect((await c.whaleFlow({ coin: "BTC" })).whale_flow[0]!.coin).toBe("BTC");
    expect((await c.composite()).weights_source).toBe("methodology");
    expect((await c.regime()).regimes).toHaveLength(2);
    const hist = await c.history({ coin: "BTC", metricId: "btc_price" });
    expect(hist.time.length).toBe(5);
    expect(hist.hours).toBe(24);
    expect(hist.coin).toBe("BTC");
    const q = await c.analyticsQuery({ dataset: "metrics", metricId: ["btc_price", "eth_price"] });
    expect(q.rows).toHaveLength(4);
    for (const name of ["liquidations", "safety", "spreads", "correlation", "depth", "imbalance", "priorityGas", "squeeze", "arbitrage", "smartMoney"] as const) {
      const body = await c[name]();
      expect(body, name).toEqual(fixture(fixtureName(ENDPOINTS[name]), "observed"));
    }
    const paths = new Set(s.requests.map((r) => r.path));
    expect([...paths].sort()).toEqual(Object.values(ENDPOINTS).sort());
  });

  it("documented variants normalise to the same values as observed, through HTTP", async () => {
    const s = await serve(fixtures);
    const c = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 });
    const doc = await c.volatility({ extraParams: { _variant: "documented" } });
    const obs = await c.volatility();
    expect(doc.variant).toBe("documented");
    expect(doc.volatility.map((e) => e.realized_vol["24h"])).toEqual(obs.volatility.map((e) => e.realized_vol["24h"]));
    for (const v of ["wrapped", "array", "pairs", "columnar", "rows"]) {
      const h = await c.history({ metricId: "btc_price", extraParams: { _variant: v } });
      expect(h.variant).toBe(v);
      expect([...h.value]).toEqual([97123.4, 97130.1, 97128.8, 97140.0, 97135.5]);
    }
  });

  it("history without a metric id in the body reports the requested one", async () => {
    const s = await serve(() => ({ body: [[1_795_348_800_000, 1]] }));
    const h = await createClient({ baseUrl: s.url }).history({ metricId: "eth_price", hours: 2 });
    expect(h.metricId).toBe("eth_price");
    expect(h.coin).toBeUndefined();
  });
});

/** A paged analytics server: 10 rows, page size from `limit`, paging style chosen by the test. */
function pagedAnalytics(style: "offset" | "cursor" | "uri" | "has_more"): Handler {
  const columns = ["time", "coin", "value"];
  const all = Array.from({ length: 10 }, (_, i) => [i * 60_000, "BTC", i]);
  return (r) => {
    const limit = Number(r.query.get("limit") ?? 3);
    const cursor = r.query.get("cursor");
    const from = cursor !== null ? Number(cursor.slice(1)) : Number(r.query.get("offset") ?? 0);
    const rows = all.slice(from, from + limit);
    const next = from + limit < all.length ? from + limit : null;
    switch (style) {
      case "offset":
        return { body: { result: { columns, rows }, metadata: { total_rows: 10, elapsed_ms: 1 }, next_offset: next } };
      case "cursor":
        return { body: { data: rows.map((x) => Object.fromEntries(columns.map((c, j) => [c, x[j]]))), has_more: next !== null, next_cursor: next === null ? null : `c${next}` } };
      case "uri":
        return { body: { columns, rows, next_uri: next === null ? null : `/v3/analytics/query?limit=${limit}&offset=${next}&dataset=metrics` } };
      default:
        return { body: { data: rows.map((x) => Object.fromEntries(columns.map((c, j) => [c, x[j]]))), has_more: next !== null } };
    }
  };
}

describe("analyticsQuery paging", () => {
  for (const style of ["offset", "cursor", "uri", "has_more"] as const) {
    it(`follows ${style} paging to the end and concatenates the rows in order`, async () => {
      const s = await serve(pagedAnalytics(style));
      const r = await createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 }).analyticsQuery({ limit: 3, dataset: "metrics" });
      expect(r.pages).toBe(4);
      expect(r.truncated).toBe(false);
      expect(r.columns).toEqual(["time", "coin", "value"]);
      expect(r.rows.map((x) => x[2])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(r.metadata["row_count"]).toBe(10);
      expect(s.requests).toHaveLength(4);
    });
  }

  it("stops at maxPages with truncated: true and a truncated event", async () => {
    const s = await serve(pagedAnalytics("offset"));
    const events: ClientEvent[] = [];
    const r = await createClient({ baseUrl: s.url, rateLimitPerMinute: 1000, maxPages: 2, onEvent: (e) => events.push(e) }).analyticsQuery({ limit: 3 });
    expect(r.pages).toBe(2);
    expect(r.truncated).toBe(true);
    expect(r.rows).toHaveLength(6);
    expect(events.filter((e) => e.type === "truncated")).toHaveLength(1);
  });

  it("stops when the service points at the page it just served", async () => {
    const s = await serve(() => ({ body: { result: { columns: ["a"], rows: [[1]] }, next_offset: 0 } }));
    const r = await createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 }).analyticsQuery({ offset: 0 });
    expect(r.rows).toEqual([[1]]);
    expect(s.requests.length).toBeLessThanOrEqual(2);
  });

  it("pages with reordered columns are aligned; different columns are a SchemaMismatchError", async () => {
    const s = await serve((r) =>
      r.query.get("offset") === null
        ? { body: { result: { columns: ["a", "b"], rows: [[1, 2]] }, next_offset: 1 } }
        : { body: { result: { columns: ["b", "a"], rows: [[4, 3]] }, next_offset: null } },
    );
    const r = await createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 }).analyticsQuery();
    expect(r.rows).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await s.close();
    const s2 = await serve((r2) =>
      r2.query.get("offset") === null
        ? { body: { result: { columns: ["a", "b"], rows: [[1, 2]] }, next_offset: 1 } }
        : { body: { result: { columns: ["a", "c"], rows: [[4, 3]] }, next_offset: null } },
    );
    await expect(createClient({ baseUrl: s2.url, rateLimitPerMinute: 1000 }).analyticsQuery()).rejects.toBeInstanceOf(SchemaMismatchError);
  });

  it("an empty result is columns with no rows, one page", async () => {
    const s = await serve(() => ({ body: { result: { columns: ["time", "value"], rows: [] }, next_offset: null } }));
    const r = await createClient({ baseUrl: s.url }).analyticsQuery();
    expect(r).toMatchObject({ columns: ["time", "value"], rows: [], pages: 1, truncated: false });
  });
});
