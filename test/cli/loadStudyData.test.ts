/**
 * loadStudyData against the replay server: every series on one time axis; a
 * component series the service lacks becomes a warning (404 injected by a
 * fetch wrapper), a missing price fails with a message naming the way out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { HttpError } from "../../src/errors/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { loadStudyData, studyMetricIds } from "../../src/cli/study/loadStudyData.js";

const NOW = Date.UTC(2026, 10, 1);
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ seed: 42, clock: () => NOW, rateLimitPerMinute: 0 });
});
afterAll(async () => server.close());

const clientHiding = (hidden: string) =>
  createClient({
    baseUrl: server.url,
    rateLimitPerMinute: 100_000,
    retries: 0,
    fetch: (input, init) => globalThis.fetch(String(input).replaceAll(`=${hidden}`, "=no_such_metric"), init),
  });

describe("loadStudyData", () => {
  it("asks for five series per coin and the gas series", () => {
    expect(studyMetricIds(["BTC", "SOL"])).toEqual([
      "btc_price", "btc_funding_rate", "btc_imbalance", "btc_basis_bps", "btc_momentum_5m_pct",
      "sol_price", "sol_funding_rate", "sol_imbalance", "sol_basis_bps", "sol_momentum_5m_pct",
      "eth_basefee_live",
    ]);
  });
  it("loads every series over the window on one ascending minute axis", async () => {
    const d = await loadStudyData(createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000 }), ["ETH"], 3);
    expect(Object.keys(d.columns).sort()).toEqual(["eth_basefee_live", "eth_basis_bps", "eth_funding_rate", "eth_imbalance", "eth_momentum_5m_pct", "eth_price"]);
    expect(d.time.length).toBe(3 * 60);
    expect(d.time[d.time.length - 1]).toBe(NOW);
    for (let i = 1; i < d.time.length; i++) expect((d.time[i] as number) - (d.time[i - 1] as number)).toBe(60_000);
    expect(d.warnings).toEqual([]);
    expect(d.requests).toBe(6);
  });
  it("turns a missing component series into a warning and leaves its column out", async () => {
    const d = await loadStudyData(clientHiding("btc_imbalance"), ["BTC"], 2);
    expect(d.columns["btc_imbalance"]).toBeUndefined();
    expect(d.columns["btc_price"]?.length).toBe(d.time.length);
    expect(d.warnings?.length).toBe(1);
    expect(d.warnings?.[0]).toMatch(/^no history for btc_imbalance \(.*\); its component is left out and the weights renormalised$/);
  });
  it("fails when a coin's price is missing, naming the way out", async () => {
    const err = await loadStudyData(clientHiding("sol_price"), ["SOL"], 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as Error).message).toContain("no price history for sol_price: leave that coin out with --coins");
  });
});
