import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type MarketIntelClient } from "../../src/api/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { fixture, startFixtureServer, type FixtureServer } from "./helpers/fixtureServer.js";

let server: FixtureServer;
let client: MarketIntelClient;
beforeAll(async () => {
  server = await startFixtureServer((r) => ({ body: r.path === "/v3/analytics/query" ? fixture("analytics", "nested") : {} }));
  client = createClient({ baseUrl: server.url, retries: 0 });
});
afterAll(() => server.close());

/** Runs `call`, expects an InvalidArgumentError about `argument`, and that nothing reached the server. */
async function rejectsBeforeRequest(call: () => Promise<unknown>, argument: string, ...mentions: string[]): Promise<void> {
  const before = server.requests.length;
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `${argument} should be rejected`).toBeInstanceOf(InvalidArgumentError);
  expect((err as InvalidArgumentError).argument).toBe(argument);
  for (const m of mentions) expect((err as Error).message).toContain(m);
  expect(server.requests.length, "no request may be sent").toBe(before);
}

describe("argument errors are raised before any request", () => {
  it("coin must be BTC/ETH/SOL/HYPE (message names function, got, allowed)", async () => {
    await rejectsBeforeRequest(() => client.volatility({ coin: "DOGE" }), "coin", "volatility", "DOGE", "BTC, ETH, SOL, HYPE");
    await rejectsBeforeRequest(() => client.whaleFlow({ coin: "" }), "coin", "whaleFlow");
    await rejectsBeforeRequest(() => client.composite({ coin: 5 as unknown as string }), "coin", "composite", "5");
    await rejectsBeforeRequest(() => client.history({ coin: "xrp", metricId: "price" }), "coin", "history", "xrp");
    await rejectsBeforeRequest(() => client.squeeze({ coin: "ada" }), "coin", "squeeze");
    await rejectsBeforeRequest(() => client.analyticsQuery({ coin: ["BTC", "LTC"] }), "coin", "analyticsQuery", "LTC");
  });

  it("history: metricId must be a catalog metric id", async () => {
    await rejectsBeforeRequest(() => client.history({ metricId: "" }), "metricId", "history", "catalog metric id");
    await rejectsBeforeRequest(() => client.history({ metricId: "  " }), "metricId");
    await rejectsBeforeRequest(() => client.history({} as never), "metricId");
    await rejectsBeforeRequest(() => client.history(undefined as never), "params", "history");
  });

  it("history: hours must be a positive integer up to 720 (boundaries 0, 721, 1.5, NaN)", async () => {
    for (const hours of [0, -3, 721, 1.5, Number.NaN, "24" as unknown as number]) {
      await rejectsBeforeRequest(() => client.history({ metricId: "btc_price", hours }), "hours", "history", "720");
    }
  });

  it("see-below endpoints accept only plain string / number / boolean values", async () => {
    await rejectsBeforeRequest(() => client.spreads({ window: { a: 1 } as never }), "window", "spreads", "string, finite number or boolean");
    await rejectsBeforeRequest(() => client.depth({ n: Number.POSITIVE_INFINITY }), "n", "depth", "Infinity");
    await rejectsBeforeRequest(() => client.regime({ x: [1] as never }), "x", "regime");
    await rejectsBeforeRequest(() => client.safety("coin=BTC" as never), "params", "safety");
    await rejectsBeforeRequest(() => client.raw("v1/snapshot"), "path", "raw");
  });

  it("analyticsQuery: dataset, interval, limit, offset, start/end are checked", async () => {
    await rejectsBeforeRequest(() => client.analyticsQuery({ dataset: "trades" as never }), "dataset", "metrics, candles, composite");
    await rejectsBeforeRequest(() => client.analyticsQuery({ interval: "2m" as never }), "interval", "1m, 5m");
    await rejectsBeforeRequest(() => client.analyticsQuery({ limit: 0 }), "limit", "50000");
    await rejectsBeforeRequest(() => client.analyticsQuery({ limit: 50_001 }), "limit");
    await rejectsBeforeRequest(() => client.analyticsQuery({ offset: -1 }), "offset");
    await rejectsBeforeRequest(() => client.analyticsQuery({ start: "yesterday" }), "start");
    await rejectsBeforeRequest(() => client.analyticsQuery({ start: new Date("x") }), "start");
    await rejectsBeforeRequest(() => client.analyticsQuery({ start: 2000, end: 1000 }), "end", "after start");
    await rejectsBeforeRequest(() => client.analyticsQuery({ metricId: [] }), "metricId");
    await rejectsBeforeRequest(() => client.analyticsQuery({ metric_id: "btc_price", extra: { a: 1 } } as never), "extra", "analyticsQuery");
  });

  it("analyticsQuery passes other keys through under the service's own names", async () => {
    await client.analyticsQuery({ metric_id: "btc_price,eth_price", dataset: "metrics", start: "2026-11-22T00:00:00Z" });
    const q = server.requests.at(-1)!.query;
    expect(q.get("metric_id")).toBe("btc_price,eth_price");
    expect(q.get("dataset")).toBe("metrics");
    expect(q.get("start")).toBe("2026-11-22T00:00:00Z");
  });

  it("boundaries that are allowed do send a request: hours 1 and 720, limit 50000, lower-case coin", async () => {
    const before = server.requests.length;
    await client.history({ metricId: "btc_price", hours: 1 });
    await client.history({ metricId: "btc_price", hours: 720, coin: "btc" });
    await client.analyticsQuery({ limit: 50_000, coin: "sol,eth" });
    expect(server.requests.length).toBe(before + 3);
    const last = server.requests.at(-1)!;
    expect(last.query.get("coin")).toBe("SOL,ETH");
    const hist = server.requests.at(-2)!;
    expect(hist.query.get("coin")).toBe("BTC");
    expect(hist.query.get("metric_id")).toBe("btc_price");
    expect(hist.query.get("metric")).toBe("btc_price");
    expect(hist.query.get("hours")).toBe("720");
  });
});

describe("createClient options", () => {
  it("no baseUrl and no MI_BASE_URL -> InvalidArgumentError telling what to do", () => {
    const saved = process.env["MI_BASE_URL"];
    delete process.env["MI_BASE_URL"];
    try {
      expect(() => createClient()).toThrow(InvalidArgumentError);
      expect(() => createClient()).toThrow(/pass baseUrl.*or set MI_BASE_URL/);
    } finally {
      if (saved !== undefined) process.env["MI_BASE_URL"] = saved;
    }
  });

  it("MI_BASE_URL is the default baseUrl (trailing slash removed)", () => {
    const saved = process.env["MI_BASE_URL"];
    process.env["MI_BASE_URL"] = "http://127.0.0.1:9/";
    try {
      expect(createClient().baseUrl).toBe("http://127.0.0.1:9");
    } finally {
      if (saved === undefined) delete process.env["MI_BASE_URL"];
      else process.env["MI_BASE_URL"] = saved;
    }
  });

  it("the clock option is `clock` (renamed from `now` in 0.2): the old name is refused, naming the new one", () => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", now: () => 0 } as never)).toThrow(
      'createClient: option "now" is now "clock" (the same () => epoch ms function)',
    );
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", clock: () => 0 })).not.toThrow();
  });

  it("bad option values are rejected with the option's name", () => {
    const base = { baseUrl: "http://127.0.0.1:9" };
    const cases: [Record<string, unknown>, string][] = [
      [{ baseUrl: "not a url" }, "baseUrl"],
      [{ baseUrl: "ftp://x" }, "baseUrl"],
      [{ ...base, timeoutMs: 0 }, "timeoutMs"],
      [{ ...base, retries: -1 }, "retries"],
      [{ ...base, retries: 1.5 }, "retries"],
      [{ ...base, rateLimitPerMinute: 0 }, "rateLimitPerMinute"],
      [{ ...base, cacheTtlMs: -1 }, "cacheTtlMs"],
      [{ ...base, maxResponseBytes: 0 }, "maxResponseBytes"],
      [{ ...base, maxPages: 0 }, "maxPages"],
      [{ ...base, apiKey: "" }, "apiKey"],
      [{ ...base, fetch: 3 }, "fetch"],
    ];
    expect(() => createClient({ ...base, timeoutMs: -1 })).toThrow("createClient: timeoutMs must be a number > 0 and <= 2147483647 (Node's largest timer), or Infinity for no time limit, got -1");
    expect(() => createClient({ ...base, retries: -1 })).toThrow("createClient: retries must be an integer >= 0, got -1");
    for (const [opts, name] of cases) {
      try {
        createClient(opts as never);
        expect.unreachable(name);
      } catch (e) {
        expect(e, name).toBeInstanceOf(InvalidArgumentError);
        expect((e as InvalidArgumentError).argument).toBe(name);
      }
    }
  });
});
